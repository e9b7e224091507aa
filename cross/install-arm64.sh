# cross/install-arm64.sh - sourced by cross/test-aarch64*.sh:
#   install_arm64 NAME PACKAGE...
# installs, when missing, the Debian 12 packages named (":arm64" ones from Debian
# multiarch, adding the arm64 architecture to dpkg first), saying "NAME:
# installing ..."; nothing when all are there.
install_arm64() {
  name=$1
  shift
  SUDO=
  [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  missing=
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      missing="$missing $p"
  done
  [ -n "$missing" ] || return 0
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    $SUDO dpkg --add-architecture arm64
  fi
  echo "$name: installing$missing"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends $missing
}
