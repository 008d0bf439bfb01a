-- Strings: format, patterns, pack/unpack, utf8.
print(("hello"):upper(), ("HeLLo"):lower(), ("abc"):rep(3, "-"), ("abc"):reverse(), #"abc")
print(string.byte("ABC", 1, -1), string.char(72, 105), ("x"):byte())
print(string.find("hello world", "o w"), string.find("hello", "l+"), string.find("a.b", ".", 1, true))
print(string.match("key = value", "(%w+)%s*=%s*(%w+)"), string.match("2026-11-22", "(%d+)-(%d+)-(%d+)"))
print(string.gsub("hello world", "o", "0"), string.gsub("abc", "%w", "%0%0"), (string.gsub("a b c", "%s", "")))
print((string.gsub("$name is $age", "%$(%w+)", {name = "lua", age = "30"})))
print((string.gsub("abc", ".", function(c) return c:byte() .. "," end)))
local words = {}
for w in string.gmatch("one two  three   four", "%a+") do words[#words + 1] = w end
print(#words, table.concat(words, "|"))
print(string.format("%q", 'a "quoted"\n string\0'), string.format("%-5s|%5s|", "ab", "cd"))
print(string.format("%g %g %g %a", 1e20, 0.1, 100, 1.0))
print(("%d items"):format(3), tostring(nil), tostring(true))
local packed = string.pack("<i4 i8 d s1 z", -2, 1 << 40, 1.5, "str", "zero")
print(#packed, string.unpack("<i4 i8 d s1 z", packed))
print(string.packsize("i4 i8 d"), string.unpack(">I2", "\1\2"))
print(utf8.char(72, 228, 8364, 128512), utf8.len("häll€"), utf8.codepoint("€", 1))
for p, c in utf8.codes("aé€") do io.write(p, ":", c, " ") end
print()
print(utf8.offset("aé€x", 3), #utf8.charpattern)
print(("  trim me  "):match("^%s*(.-)%s*$") .. "|", ("a,b,,c"):find(",,"), ("%bxy"):len())
print(string.match("f(a(b)c)d", "%b()"), string.match("THE (quick) fox", "%f[%a]%a+"), ("x"):rep(0) == "")
local parts = {}
for k, v in string.gmatch("a=1, b=2, c=3", "(%w+)=(%w+)") do parts[#parts + 1] = k .. v end
print(table.concat(parts, ";"))
local big = {}
for i = 1, 20000 do big[#big + 1] = string.format("%05d", i) end
local s = table.concat(big)
print(#s, s:sub(1, 10), s:sub(-10), select(2, s:gsub("99", "")))
print(string.format("%s", setmetatable({}, {__tostring = function() return "custom" end})))
print(pcall(string.rep), select("#", string.byte("hello", 1, -1)))
