-- Several requests for one key in one run: the single-request script above, as the function one(ARGV), is applied
-- to each in order, so each is decided exactly as it would have been alone at that point, on the state the ones
-- before it left. ARGV: [1] count c, then c pairs (caller time in us or '' for Redis TIME, permits n), then the
-- algorithm's parameters as the single-request script takes them from ARGV[5].
-- Reply: the c single-request replies, one after the other.
local c = tonumber(ARGV[1])
local args = {'', 'a', 0, 0}
for i = 2 + 2 * c, #ARGV do args[#args + 1] = ARGV[i] end
local out = {}
for i = 0, c - 1 do
  args[1] = ARGV[2 + 2 * i]
  args[3] = ARGV[3 + 2 * i]
  args[4] = args[3]
  local r = one(args)
  for j = 1, #r do out[#out + 1] = r[j] end
end
return out
