# perl-text: 5000 lines joined into a document, split into 4092-byte records, appended.
use strict;
use warnings;
my @lines = map { ("x" x (20 + ($_ * 53) % 4000)) . "\n" } 1..5000;
my $total = 0;
for my $r (1..180) {
  my $doc = join("", @lines);
  my @chunks = unpack("(a4092)*", $doc);
  my $out = "";
  $out .= $_ for @chunks;
  $total += length($out) + scalar(@chunks);
}
print "$total\n";
