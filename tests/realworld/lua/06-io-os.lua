-- io and os: files, lines, seek, formats, dates in UTC, the environment.
local name = os.tmpname()
local f = assert(io.open(name, "w"))
for i = 1, 1000 do f:write(i, " ", i * i, "\n") end
f:write("last line without newline")
f:close()
local sum, lines = 0, 0
for l in io.lines(name) do
  lines = lines + 1
  local a, b = l:match("(%d+) (%d+)")
  if b then sum = sum + tonumber(b) end
end
print("lines", lines, "sum of squares", sum)
f = assert(io.open(name, "r"))
print(f:read("n", "n"), f:seek("cur"), f:seek("end") > 0, f:seek("set", 0), f:read("l"))
print(f:read(3), f:read("L"), io.type(f))
f:close()
print(io.type(f), io.type(42))
f = assert(io.open(name, "a+"))
f:write("\nappended")
f:seek("set")
local all = f:read("a")
f:close()
print(#all, all:sub(-8))
print(os.remove(name), io.open(name) == nil)
print(select(2, io.open("/nonexistent/dir/file")) ~= nil)
print(os.date("!%Y-%m-%d %H:%M:%S", 86400 * 365), os.time({year = 2000, month = 1, day = 1, hour = 12}) ~= nil)
print(os.date("!*t", 0).year, type(os.clock()), os.getenv("PERFPRED_REALWORLD_UNSET_VARIABLE"))
io.write("written with io.write ", 1, " ", 2.5, "\n")
io.stdout:write("and with io.stdout\n")
print(string.format("%5.2f%%", 12.345))
