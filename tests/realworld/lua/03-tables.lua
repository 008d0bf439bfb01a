-- Tables and metatables, sorting, weak tables, the garbage collector.
local t = {10, 20, 30}
table.insert(t, 40); table.insert(t, 1, 5)
print(#t, table.concat(t, ","), table.remove(t), table.remove(t, 1), table.concat(t, ","))
print(table.unpack({1, 2, 3}))
print(select("#", table.unpack({1, nil, 3}, 1, 3)))
print(table.concat(table.move({1, 2, 3, 4, 5}, 2, 4, 1), ","))
local p = table.pack(1, nil, 3)
print(p.n, p[1], p[2], p[3])
math.randomseed(7)
local a = {}
for i = 1, 5000 do a[i] = math.random(1, 100000) end
table.sort(a)
local ok = true
for i = 2, #a do if a[i - 1] > a[i] then ok = false end end
print("sorted", ok, a[1], a[2500], a[5000])
table.sort(a, function(x, y) return x > y end)
print("reverse", a[1], a[5000])
local people = {{name = "ann", age = 31}, {name = "bob", age = 25}, {name = "cy", age = 31}, {name = "di", age = 19}}
table.sort(people, function(x, y) if x.age ~= y.age then return x.age < y.age end return x.name < y.name end)
for _, q in ipairs(people) do io.write(q.name, "=", q.age, " ") end
print()
-- keys of a hash part, in sorted order (pairs' order is not fixed)
local h = {}
for i = 1, 100 do h["k" .. i] = i * i end
local keys = {}
for k in pairs(h) do keys[#keys + 1] = k end
table.sort(keys)
print(#keys, keys[1], keys[100], h.k7)
-- metatables
local V = {}
V.__index = V
V.__add = function(x, y) return setmetatable({x = x.x + y.x, y = x.y + y.y}, V) end
V.__eq = function(x, y) return x.x == y.x and x.y == y.y end
V.__lt = function(x, y) return x.x < y.x end
V.__le = function(x, y) return x.x <= y.x end
V.__tostring = function(v) return "(" .. v.x .. "," .. v.y .. ")" end
V.__len = function() return 2 end
V.__call = function(v, k) return v.x * k end
V.__concat = function(x, y) return tostring(x) .. tostring(y) end
V.__unm = function(v) return setmetatable({x = -v.x, y = -v.y}, V) end
function V.new(x, y) return setmetatable({x = x, y = y}, V) end
function V:norm2() return self.x * self.x + self.y * self.y end
local u, w = V.new(1, 2), V.new(3, 4)
print(tostring(u + w), u == V.new(1, 2), u < w, u <= w, #u, u(10), u .. w, tostring(-u), w:norm2())
local log = {}
local proxy = setmetatable({}, {__index = function(_, k) return k .. "!" end,
                                __newindex = function(_, k, v) log[#log + 1] = k .. "=" .. tostring(v) end})
proxy.a = 1; proxy.b = 2
print(proxy.x, rawget(proxy, "a"), table.concat(log, ","))
-- weak tables and finalizers
local weak = setmetatable({}, {__mode = "k"})
local finalized = 0
do
  for i = 1, 100 do
    weak[setmetatable({}, {__gc = function() finalized = finalized + 1 end})] = i
  end
end
collectgarbage(); collectgarbage()
local left = 0
for _ in pairs(weak) do left = left + 1 end
print("weak entries left", left, "finalized", finalized)
-- a big table: array part and hash part
local big = {}
for i = 1, 200000 do big[i] = i end
for i = 1, 200000, 2 do big[i] = nil end
local n = 0
for _, v in pairs(big) do n = n + v end
print("sum of evens", n)
print(next({}), type(next), rawlen({1, 2}), rawequal(t, t))
