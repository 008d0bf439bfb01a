-- Numbers: integers and floats, conversions, bitwise operators, math.
local function show(...) print(...) end
show(1 + 2, 7 // 2, -7 // 2, 7 % 3, -7 % 3, 7.5 // 2, 2^10, 10 / 4)
show(math.maxinteger, math.mininteger, math.maxinteger + 1 == math.mininteger)
show(3 | 5, 3 & 5, 3 ~ 5, ~0, 1 << 62, 1 << 64, -1 >> 1, 0xff)
show(math.type(1), math.type(1.0), math.type("1"), math.tointeger(3.0), math.tointeger(3.5))
show(tostring(1e15), tostring(1e16), tostring(-0.0), 1/0, -1/0, 0/0 ~= 0/0)
show(string.format("%.14g %.3f %5.1e %d %x %X %o", math.pi, math.pi, 12345.678, 42, 255, 255, 8))
show(math.floor(-3.5), math.ceil(-3.5), math.abs(-4), math.max(3, 9, 2), math.min(3, 9, 2))
show(math.fmod(7, 3), math.fmod(-7, 3), math.sqrt(2), math.exp(1), math.log(8, 2), math.log(100, 10))
show(string.format("%.10f %.10f %.10f", math.sin(1), math.cos(1), math.tan(1)))
show(tonumber("0x10"), tonumber("  12  "), tonumber("1e2"), tonumber("z", 36), tonumber("777", 8), tonumber("nope"))
show(10 == 10.0, "10" == 10, 1 < 1.5, math.ult(1, -1), 2^53 == 2^53 + 1)
math.randomseed(42)
local t = {}
for i = 1, 10 do t[i] = math.random(1, 1000) end
show(table.concat(t, " "))
local s = 0
for i = 1, 100000 do s = s + math.random(0, 9) end
show("sum of 100000 random digits", s)
local acc = 0.0
for i = 1, 1000000 do acc = acc + 1 / (i * i) end
show(string.format("basel %.12f", acc))
local h = 0
for i = 1, 200000 do h = (h * 31 + i) & 0xffffffff end
show("hash", h)
