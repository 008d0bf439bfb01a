-- Small programs: a sieve, N queens, a matrix product, a word count, a
-- serializer, a Mandelbrot set in characters, an interpreter of sorts.
local function sieve(n)
  local comp, count = {}, 0
  for i = 2, n do
    if not comp[i] then
      count = count + 1
      for j = i * i, n, i do comp[j] = true end
    end
  end
  return count
end
print("primes below 200000", sieve(200000))
local function queens(n)
  local cols, d1, d2, sol = {}, {}, {}, 0
  local function place(r)
    if r > n then sol = sol + 1; return end
    for c = 1, n do
      if not cols[c] and not d1[r + c] and not d2[r - c + n] then
        cols[c], d1[r + c], d2[r - c + n] = true, true, true
        place(r + 1)
        cols[c], d1[r + c], d2[r - c + n] = nil, nil, nil
      end
    end
  end
  place(1)
  return sol
end
print("8 queens", queens(8))
local function matmul(a, b, n)
  local c = {}
  for i = 1, n do
    local ci = {}
    for j = 1, n do
      local s = 0
      for k = 1, n do s = s + a[i][k] * b[k][j] end
      ci[j] = s
    end
    c[i] = ci
  end
  return c
end
local n, a, b = 60, {}, {}
for i = 1, n do
  a[i], b[i] = {}, {}
  for j = 1, n do a[i][j] = (i + j) % 7; b[i][j] = (i * j) % 5 end
end
local c = matmul(a, b, n)
local tr = 0
for i = 1, n do tr = tr + c[i][i] end
print("trace", tr, c[1][1], c[n][n])
local text = [[the quick brown fox jumps over the lazy dog the dog sleeps
and the fox runs while the quick cat watches the fox and the dog]]
local freq = {}
for w in text:gmatch("%a+") do freq[w] = (freq[w] or 0) + 1 end
local ws = {}
for w, k in pairs(freq) do ws[#ws + 1] = {w, k} end
table.sort(ws, function(x, y) if x[2] ~= y[2] then return x[2] > y[2] end return x[1] < y[1] end)
for i = 1, 5 do io.write(ws[i][1], ":", ws[i][2], " ") end
print()
local function ser(v, ind)
  ind = ind or ""
  if type(v) ~= "table" then return type(v) == "string" and string.format("%q", v) or tostring(v) end
  local ks = {}
  for k in pairs(v) do ks[#ks + 1] = k end
  table.sort(ks, function(x, y) return tostring(x) < tostring(y) end)
  local out = {}
  for _, k in ipairs(ks) do out[#out + 1] = ind .. "  " .. tostring(k) .. " = " .. ser(v[k], ind .. "  ") end
  return "{\n" .. table.concat(out, ",\n") .. "\n" .. ind .. "}"
end
print(ser({name = "lua", version = 5.4, list = {1, 2, 3}, nested = {a = true, b = "x"}}))
for y = -1.2, 1.2, 0.2 do
  local row = {}
  for x = -2.0, 0.6, 0.08 do
    local zr, zi, i = 0, 0, 0
    while i < 50 and zr * zr + zi * zi < 4 do
      zr, zi = zr * zr - zi * zi + x, 2 * zr * zi + y
      i = i + 1
    end
    row[#row + 1] = i == 50 and "#" or (i > 8 and "+" or ".")
  end
  print(table.concat(row))
end
-- a stack machine
local prog = {"push 2", "push 3", "add", "push 7", "mul", "dup", "mul", "push 5", "sub", "print"}
local st = {}
for _, ins in ipairs(prog) do
  local op, arg = ins:match("(%a+)%s*(%d*)")
  if op == "push" then st[#st + 1] = tonumber(arg)
  elseif op == "dup" then st[#st + 1] = st[#st]
  elseif op == "print" then print("stack machine", st[#st])
  else
    local y, x = table.remove(st), table.remove(st)
    st[#st + 1] = op == "add" and x + y or op == "sub" and x - y or x * y
  end
end
local fibs = {1, 1}
for i = 3, 90 do fibs[i] = fibs[i - 1] + fibs[i - 2] end
print("fib(90)", fibs[90], math.type(fibs[90]))
