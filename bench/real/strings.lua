-- lua-strings: table.concat of 2000 strings of 100 B-8 KiB, then 4 KiB pieces cut and joined.
local parts = {}
for i = 1, 2000 do parts[i] = string.rep(string.char(65 + i % 26), 100 + (i * 37) % 8000) end
local total = 0
for r = 1, 400 do
  local s = table.concat(parts, ",")
  local t = {}
  for j = 1, 200 do t[j] = s:sub(j * 1000 + r, j * 1000 + r + 4091) end
  total = total + #s + #table.concat(t)
end
print(total)
