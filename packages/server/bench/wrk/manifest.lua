-- wrk script of `npm run bench:manifest` (wrk 4.x, LuaJIT).
--
-- Arguments (after `--` on wrk's command line):
--   <runtime-version prefix> <track count> [current update id, or - for none] [device count] [app count]
-- Builds one manifest request per track (runtime version <prefix>0 … <prefix><count-1>, platform ios,
-- channel production, a signature asked for), and per device when a device count is given (each
-- with its own EAS-Client-ID, as expo-updates sends), once per thread, and hands them out round robin.
-- A single track is a count of 1: single-track and 1,000-track runs then run the same Lua per
-- request, so the load generator's cost cannot tilt their ratio. With a current update id every
-- request says the app already runs it (the 204 path).
--
-- done() prints one JSON line, which the benchmark parses instead of wrk's text report.
-- errors.status counts answers with a status of 400 or more (wrk's own rule).

local requests = {}
local count = 0
local cursor = 0

function init(args)
  local prefix = args[1] or "1.0."
  local tracks = tonumber(args[2] or "1")
  local current = args[3]
  if current == "-" then current = nil end
  local devices = tonumber(args[4] or "0")
  local apps = tonumber(args[5] or "0")
  count = 0
  for a = 0, math.max(apps, 1) - 1 do
  local path = "/api/updates/manifest"
  if apps > 0 then path = "/api/apps/bench-" .. a .. "/manifest" end
  for i = 0, tracks - 1 do
   for d = 0, math.max(devices, 1) - 1 do
    local headers = {
      ["Accept"] = "multipart/mixed,application/expo+json,application/json",
      ["expo-protocol-version"] = "1",
      ["expo-platform"] = "ios",
      ["expo-runtime-version"] = prefix .. i,
      ["expo-channel-name"] = "production",
      ["expo-expect-signature"] = 'sig, keyid="main", alg="rsa-v1_5-sha256"',
    }
    if current then
      headers["expo-current-update-id"] = current
    end
    if devices > 0 then
      headers["eas-client-id"] = string.format("bench-device-%08d", d)
    end
    count = count + 1
    requests[count] = wrk.format("GET", path, headers)
   end
  end
  end
end

function request()
  cursor = cursor % count + 1
  return requests[cursor]
end

function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    '{"wrk_summary":1,"requests":%d,"duration_us":%d,"bytes":%d,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
      '"latency_us":{"p50":%d,"p99":%d,"max":%d}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max
  ))
end
