-- GCRA (token bucket and leaky bucket) in one string value: the theoretical arrival time TAT in ns since 1970.
-- KEYS[1] state; ARGV: [1] caller time in us or '' for Redis TIME, [2] 'a' acquire | 'r' release,
-- [3] permits n, [4] most permits to grant (a lease; = n otherwise), [5] T div 1000, [6] T mod 1000 (T = ceil(W/L) ns),
-- [7] burst.
-- Times are kept as (microseconds, nanosecond remainder 0..999) pairs: Lua numbers are doubles, exact for integers
-- below 2^53, and 2^53 us after 1970 is about 285 years away, so every microsecond count here is exact, while T
-- keeps its nanoseconds. The emission interval T and the tolerance burst*T stay below 2^60 ns, so their
-- microsecond parts are below 2^50 and products n*(T mod 1000) below 2^50.
-- Reply: {allowed, granted, d_us, d_ns}: d = TAT' - now when admitted, max(TAT, now) - now when denied.
-- A caller's time (tests only) is not the clock Redis expires keys by: then keys are left without expiry.
local expire = ARGV[1] == ''
local now
if not expire then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local tu, tr, burst = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local n, most = tonumber(ARGV[3]), tonumber(ARGV[4])

local function times(k)
  local r = k * tr
  local carry = math.floor(r / 1000)
  return k * tu + carry, r - carry * 1000
end
local function plus(au, ar, bu, br)
  local r = ar + br
  if r >= 1000 then return au + bu + 1, r - 1000 end
  return au + bu, r
end
local function minus(au, ar, bu, br)
  local r = ar - br
  if r < 0 then return au - bu - 1, r + 1000 end
  return au - bu, r
end
local function atMost(au, ar, bu, br)
  return au < bu or (au == bu and ar <= br)
end

-- The stored TAT is the decimal ns count: all digits but the last three are microseconds.
local st = redis.call('GET', KEYS[1])
local su, sr = now, 0
if st then su, sr = tonumber(string.sub(st, 1, -4)), tonumber(string.sub(st, -3)) end
-- Writes TAT = (u, r), to vanish once TAT <= now (then it equals a fresh bucket), rounded up to a whole ms.
local function store(u, r)
  local value = string.format('%.0f%03d', u, r)
  if expire then
    redis.call('SET', KEYS[1], value, 'PX', math.floor((u - now) / 1000) + 1)
  else
    redis.call('SET', KEYS[1], value)
  end
end

if ARGV[2] == 'r' then
  if not st then return {1, 0, 0, 0} end
  -- TAT' = max(TAT - min(n, burst) * T, min(TAT, now)): never richer than a fresh bucket.
  local bu, br = times(math.min(n, burst))
  local nu, nr = minus(su, sr, bu, br)
  local fu, fr = su, sr
  if not atMost(su, sr, now, 0) then fu, fr = now, 0 end
  if atMost(nu, nr, fu, fr) then nu, nr = fu, fr end
  if atMost(nu, nr, now, 0) then
    redis.call('DEL', KEYS[1])
  else
    store(nu, nr)
  end
  return {1, 0, 0, 0}
end

local baseU, baseR = su, sr
if atMost(su, sr, now, 0) then baseU, baseR = now, 0 end
local tolU, tolR = times(burst)
-- Whether k permits fit: base + k*T - now <= burst*T.
local function fits(k)
  local ku, kr = times(k)
  local xu, xr = plus(baseU, baseR, ku, kr)
  xu, xr = minus(xu, xr, now, 0)
  return atMost(xu, xr, tolU, tolR)
end
local du, dr = minus(baseU, baseR, now, 0)
if n > burst or not fits(n) then
  return {0, 0, du, dr}
end
local granted = n
if most > n then
  -- A lease: the largest k <= most that fits. The double estimate is off by a few at most; the loops make it exact.
  local free = (tolU - du) * 1000 + (tolR - dr)
  local k = math.min(most, math.floor(free / (tu * 1000 + tr)))
  if k < n then k = n end
  while k > n and not fits(k) do k = k - 1 end
  while k < most and fits(k + 1) do k = k + 1 end
  granted = k
end
local gu, gr = times(granted)
local nu, nr = plus(baseU, baseR, gu, gr)
store(nu, nr)
local ou, orem = minus(nu, nr, now, 0)
return {1, granted, ou, orem}
