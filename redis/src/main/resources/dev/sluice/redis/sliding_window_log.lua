-- Sliding window log: admit n iff, with it, at most L permits fall in (now - W, now]. Exact.
-- KEYS[1] sorted set of admitted permits (score = admission time in us, member = a per-key sequence number, so that
-- equal times are never merged), KEYS[2] that sequence. ARGV: [1] caller time in us or '' for Redis TIME,
-- [2] 'a' acquire | 'r' release, [3] permits n, [4] most permits to grant (a lease; = n otherwise), [5] W in us, [6] L.
-- Lua numbers are doubles, exact for integers below 2^53: time in whole microseconds is exact for about 285 years
-- after 1970.
-- Entries never decrease: a request at an earlier time than the newest entry counts as at that entry's time.
-- Reply: {allowed, granted, permits in the window after this request, us until the log is empty,
--         us until the same request could pass (denied only)}.
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

if ARGV[2] == 'r' then
  -- Give back the newest permits admitted at or before now.
  local newest = redis.call('ZREVRANGEBYSCORE', KEYS[1], string.format('%.0f', now), '-inf', 'LIMIT', 0, n)
  for i = 1, #newest do redis.call('ZREM', KEYS[1], newest[i]) end
  return {1, 0, 0, 0, 0}
end

local clock = now
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[2] then now = math.max(now, tonumber(last[2])) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now - w))
local count = redis.call('ZCARD', KEYS[1])
if n > limit - count then
  local reset, retry = 0, 0
  if count > 0 then
    reset = tonumber(last[2]) + w - now
    if n <= limit then
      -- The permit that must leave the window first is the (L - n + 1)-th newest.
      local k = redis.call('ZRANGE', KEYS[1], count - (limit - n + 1), count - (limit - n + 1), 'WITHSCORES')
      retry = tonumber(k[2]) + w - now
    end
  end
  return {0, 0, count, reset, retry}
end
local granted = math.min(most, limit - count)
local seq = redis.call('INCRBY', KEYS[2], granted)
local at = string.format('%.0f', now)
local i = seq - granted + 1
while i <= seq do
  -- Batches keep the argument list well below Lua's stack limit.
  local args = {}
  local stop = math.min(seq, i + 499)
  for j = i, stop do
    args[#args + 1] = at
    args[#args + 1] = string.format('%.0f', j)
  end
  redis.call('ZADD', KEYS[1], unpack(args))
  i = stop + 1
end
-- Empty, and so worthless, once the newest entry has left the window.
local ttl = math.floor((now - clock + w + 999) / 1000)
if expire then redis.call('PEXPIRE', KEYS[1], ttl) end
if expire then redis.call('PEXPIRE', KEYS[2], ttl) end
return {1, granted, count + granted, w, 0}
