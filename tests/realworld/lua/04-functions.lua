-- Functions: closures, varargs, recursion, tail calls, coroutines, errors, goto, load.
local function counter()
  local n = 0
  return function() n = n + 1; return n end
end
local c1, c2 = counter(), counter()
c1(); c1()
print(c1(), c2())
local function va(...) return select("#", ...), ... end
print(va(1, nil, 3), va())
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print("fib(25)", fib(25))
local function ack(m, n)
  if m == 0 then return n + 1 end
  if n == 0 then return ack(m - 1, 1) end
  return ack(m - 1, ack(m, n - 1))
end
print("ack(2,3)", ack(2, 3), "ack(3,3)", ack(3, 3))
local function loop(n, acc) if n == 0 then return acc end return loop(n - 1, acc + 1) end
print("tail calls", loop(1000000, 0))
-- coroutines
local gen = coroutine.wrap(function() for i = 1, 5 do coroutine.yield(i * i) end return "done" end)
print(gen(), gen(), gen(), gen(), gen(), gen())
local co = coroutine.create(function(a, b)
  local c = coroutine.yield(a + b)
  local d, e = coroutine.yield(c * 2)
  return d + e
end)
print(coroutine.resume(co, 1, 2))
print(coroutine.resume(co, 10))
print(coroutine.resume(co, 3, 4))
print(coroutine.resume(co), coroutine.status(co))
local function producer()
  return coroutine.wrap(function()
    for i = 1, 3 do coroutine.yield("item" .. i) end
  end)
end
local items = {}
for it in producer() do items[#items + 1] = it end
print(table.concat(items, " "), coroutine.isyieldable(), select(2, coroutine.running()))
-- yield across pcall
local co2 = coroutine.create(function()
  local ok, v = pcall(function() local x = coroutine.yield(1); error("boom " .. x) end)
  coroutine.yield(ok, (v:gsub("^.-:%d+: ", "")))
  return "end"
end)
print(coroutine.resume(co2)); print(coroutine.resume(co2, "x")); print(coroutine.resume(co2))
-- errors
print(pcall(error, "msg", 0), type(select(2, pcall(error, {code = 42}))))
print(select(2, pcall(error, setmetatable({}, {__tostring = function() return "E" end}))) ~= nil)
print(xpcall(function() local t = nil; return t.x end, function(m) return "handled: " .. (m:gsub("^.-:%d+: ", "")) end))
print(pcall(function() return 1 + {} end))
local ok, e = pcall(function() error({code = 7}) end)
print(ok, type(e), e.code)
print(select(2, pcall(string.format, "%d", 1.5)))
-- goto
local out = {}
for i = 1, 3 do
  for j = 1, 3 do
    if j == 2 then goto continue end
    out[#out + 1] = i .. j
    ::continue::
  end
end
print(table.concat(out, " "))
-- load, string.dump
local f = load("local a, b = ... return a * b")
print(f(6, 7), load("return 1 +")  == nil, (select(2, load("return 1 +"))):gsub("^.-:", ""))
local env = {x = 5}
print(load("return x * 2", "chunk", "t", env)())
local g = load(string.dump(function(n) local s = 0 for i = 1, n do s = s + i end return s end))
print("dumped", g(100))
local code = {}
for i = 1, 200 do code[#code + 1] = "local v" .. i .. " = " .. i end
code[#code + 1] = "return v1 + v200"
print(load(table.concat(code, "\n"))())
-- to-be-closed variables
local closed = {}
do
  local a <close> = setmetatable({}, {__close = function() closed[#closed + 1] = "a" end})
  local b <close> = setmetatable({}, {__close = function() closed[#closed + 1] = "b" end})
  local k <const> = 3
  closed[#closed + 1] = "body" .. k
end
print(table.concat(closed, ","))
print(string.format("%s %s", type(print), type(nil)), select(-1, 1, 2, 3))
