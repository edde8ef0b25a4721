-- Fixed window: at most L permits per window [k*W, (k+1)*W) of Redis time (aligned to multiples of W since 1970).
-- KEYS[1] state hash {w = window index, c = count}; ARGV: [1] caller time in us or '' for Redis TIME,
-- [2] 'a' acquire | 'r' release, [3] permits n, [4] most permits to grant (a lease; = n otherwise), [5] W in us, [6] L.
-- Lua numbers are doubles, exact for integers below 2^53; 2^53 us after 1970 is about 285 years, so time in whole
-- microseconds and every product k*W <= now + W here are exact.
-- The index never goes back: a request at an earlier time counts in the key's latest window.
-- Reply: {allowed, granted, count before this request, us until the window ends}.
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
local st = redis.call('HMGET', KEYS[1], 'w', 'c')
local stored = st[1] and tonumber(st[1]) or -1

if ARGV[2] == 'r' then
  -- Permits of a window that is over are gone anyway.
  if stored >= current then
    local c = tonumber(st[2])
    redis.call('HSET', KEYS[1], 'c', c - math.min(c, n))
  end
  return {1, 0, 0, 0}
end

local index = math.max(stored, current)
local count = 0
if index == stored then count = tonumber(st[2]) end
local untilEnd = (index + 1) * w - math.max(now, index * w)
if n > limit - count then
  return {0, 0, count, untilEnd}
end
local granted = math.min(most, limit - count)
redis.call('HSET', KEYS[1], 'w', string.format('%.0f', index), 'c', count + granted)
-- The state is worthless once its window is over: let Redis drop it then, rounded up to a whole millisecond.
if expire then redis.call('PEXPIRE', KEYS[1], math.floor(((index + 1) * w - now + 999) / 1000)) end
return {1, granted, count, untilEnd}
