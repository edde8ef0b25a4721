-- Sliding window counter: admit n iff prev * (W - e) / W + curr + n <= L, e = time since the current fixed window
-- began (windows aligned to multiples of W on Redis time), compared exactly as prev * (W - e) <= (L - curr - n) * W.
-- KEYS[1] state hash {w = window index, p = previous count, c = current count}; ARGV: [1] caller time in us or ''
-- for Redis TIME, [2] 'a' acquire | 'r' release, [3] permits n, [4] most permits to grant (a lease; = n otherwise),
-- [5] W in us, [6] L.
-- Lua numbers are doubles, exact for integers below 2^53: time in whole microseconds is exact for about 285 years
-- after 1970, and the limiter checks L * W < 2^53 so that both products above are exact.
-- Reply: {allowed, granted, prev, curr before this request, e in us}.
-- A caller's time (tests only) is not the clock Redis expires keys by: then keys are left without expiry.
local expire = ARGV[1] == ''
local now
if not expire then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local n, most, w, limit = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local current = math.floor(now / w)
local st = redis.call('HMGET', KEYS[1], 'w', 'p', 'c')
local stored = st[1] and tonumber(st[1]) or -2

if ARGV[2] == 'r' then
  if stored >= current then
    local c = tonumber(st[3])
    redis.call('HSET', KEYS[1], 'c', c - math.min(c, n))
  end
  return {1, 0, 0, 0, 0}
end

local index = math.max(stored, current)
local prev, curr = 0, 0
if index == stored then
  prev, curr = tonumber(st[2]), tonumber(st[3])
elseif index == stored + 1 then
  prev = tonumber(st[3])
end
local e = math.max(0, now - index * w)
-- The most permits that fit now: L - curr - ceil(prev * (W - e) / W); the double quotient is corrected to exact.
local a = prev * (w - e)
local q = math.floor(a / w)
while q * w > a do q = q - 1 end
while (q + 1) * w <= a do q = q + 1 end
if q * w < a then q = q + 1 end
local free = limit - curr - q
if n > free then
  return {0, 0, prev, curr, e}
end
local granted = math.min(most, free)
redis.call('HSET', KEYS[1], 'w', string.format('%.0f', index), 'p', prev, 'c', curr + granted)
-- Worthless once it cannot be the previous window any more: the end of the next window.
if expire then redis.call('PEXPIRE', KEYS[1], math.floor(((index + 2) * w - now + 999) / 1000)) end
return {1, granted, prev, curr, e}
