//! Budgets every replica shares, kept in Redis (`FERRY_REDIS_URL`): the same GCRA as a local
//! [`Budget`](super::Budget), run atomically in Redis by a script on Redis's own clock, so
//! replicas whose clocks differ still agree.
//!
//! Redis is a help, never a dependency: a call that fails or takes longer than
//! [`CALL_TIMEOUT`] is counted in the replica instead, and Redis is left alone for
//! [`REST_AFTER_FAILURE`] before it is asked again.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::RetryAfter;

/// The longest a request waits for Redis before it is counted in the replica.
const CALL_TIMEOUT: Duration = Duration::from_millis(250);
/// How long budgets stay per replica after Redis failed.
const REST_AFTER_FAILURE: Duration = Duration::from_secs(5);

/// GCRA on Redis's clock. KEYS[1]: the client's theoretical arrival time, in microseconds.
/// ARGV: the window and the cost in microseconds, and `1` to take (`0` only looks). Answers 0
/// when there is room, or the microseconds until there is.
const GCRA: &str = r"
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local window = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local after = tat + cost
if after - now > window then
  return after - now - window
end
if ARGV[3] == '1' then
  redis.call('SET', KEYS[1], string.format('%.0f', after), 'PX', math.ceil((after - now) / 1000))
end
return 0
";

/// A place in a shared gauge lasts this long unless renewed (a replica that dies frees its places
/// by this time) ...
const GAUGE_PLACE_LIFE: Duration = Duration::from_secs(60);
/// ... and is renewed this often while its stream is open.
pub(super) const GAUGE_RENEW: Duration = Duration::from_secs(20);

/// A place in a gauge. KEYS[1]: the set of places (members scored by when they lapse, in ms on
/// Redis's clock). ARGV: the member, the most places, their life in ms. Answers 1 if taken.
const GAUGE_ENTER: &str = r"
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
";

/// Renews places: KEYS are their sets, ARGV[1] their life in ms, then one member per key. A place
/// that lapsed meanwhile (Redis was away or restarted) is taken again: its stream is still open.
const GAUGE_RENEW_SCRIPT: &str = r"
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local life = tonumber(ARGV[1])
for i, set in ipairs(KEYS) do
  redis.call('ZADD', set, now + life, ARGV[i + 1])
  redis.call('PEXPIRE', set, life)
end
return 0
";

/// How many places one renewal call carries.
const RENEW_BATCH: usize = 500;

pub struct SharedCounter {
    connection: ConnectionManager,
    gauge_enter: redis::Script,
    gauge_renew: redis::Script,
    /// This site's part of Redis: every replica on one database has the same, other sites on
    /// the same Redis another.
    namespace: String,
    script: redis::Script,
    /// Until when (milliseconds since `start`) Redis is left alone after a failure.
    resting_until: AtomicU64,
    start: Instant,
}

impl SharedCounter {
    /// Connects lazily: a Redis that is down at start-up only means per-replica budgets until
    /// it is up.
    pub fn new(url: &str, namespace: &str) -> Result<SharedCounter, redis::RedisError> {
        let client = redis::Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CALL_TIMEOUT))
            .set_response_timeout(Some(CALL_TIMEOUT))
            .set_number_of_retries(1);
        Ok(SharedCounter {
            connection: ConnectionManager::new_lazy_with_config(client, config)?,
            namespace: namespace.to_owned(),
            script: redis::Script::new(GCRA),
            gauge_enter: redis::Script::new(GAUGE_ENTER),
            gauge_renew: redis::Script::new(GAUGE_RENEW_SCRIPT),
            resting_until: AtomicU64::new(0),
            start: Instant::now(),
        })
    }

    /// Takes (or, with `take` false, looks for) `cost` of `window` from the budget `name` of
    /// `client`; `None` when Redis did not answer in time.
    pub(super) async fn gcra(
        &self,
        name: &str,
        client: &str,
        window: Duration,
        cost: Duration,
        take: bool,
    ) -> Option<Result<(), RetryAfter>> {
        let now = self.millis();
        if now < self.resting_until.load(Ordering::Relaxed) {
            return None;
        }
        let mut connection = self.connection.clone();
        let mut call = self
            .script
            .key(format!("ferry:{}:{name}:{client}", self.namespace));
        call.arg(window.as_micros() as u64)
            .arg(cost.as_micros().max(1) as u64)
            .arg(u8::from(take));
        let answer = tokio::time::timeout(CALL_TIMEOUT, call.invoke_async::<i64>(&mut connection));
        match answer.await {
            Ok(Ok(0)) => Some(Ok(())),
            Ok(Ok(wait)) => Some(Err(RetryAfter(Duration::from_micros(wait.unsigned_abs())))),
            Ok(Err(error)) => self.rest(now, &error.to_string()),
            Err(_) => self.rest(now, "no answer in time"),
        }
    }

    /// The Redis key of a gauge's places for `key`.
    pub(super) fn set_name(&self, gauge: &str, key: &str) -> String {
        format!("ferry:{}:{gauge}:{key}", self.namespace)
    }

    /// Takes a place in `set` unless it holds `most`; `None` when Redis did not answer.
    pub(super) async fn enter(&self, set: &str, member: &str, most: u32) -> Option<bool> {
        let now = self.millis();
        if now < self.resting_until.load(Ordering::Relaxed) {
            return None;
        }
        let mut connection = self.connection.clone();
        let mut call = self.gauge_enter.key(set);
        call.arg(member)
            .arg(most)
            .arg(GAUGE_PLACE_LIFE.as_millis() as u64);
        let answer = tokio::time::timeout(CALL_TIMEOUT, call.invoke_async::<i64>(&mut connection));
        match answer.await {
            Ok(Ok(taken)) => Some(taken == 1),
            Ok(Err(error)) => self.rest(now, &error.to_string()).map(|_| false),
            Err(_) => self.rest(now, "no answer in time").map(|_| false),
        }
    }

    /// Gives a place back (it would lapse by itself, later).
    pub(super) async fn leave(&self, set: &str, member: &str) {
        let mut connection = self.connection.clone();
        let mut command = redis::cmd("ZREM");
        command.arg(set).arg(member);
        let _ = tokio::time::timeout(CALL_TIMEOUT, command.exec_async(&mut connection)).await;
    }

    /// Renews places: (set, member) pairs.
    pub(super) async fn renew(&self, places: &[(String, String)]) {
        for batch in places.chunks(RENEW_BATCH) {
            let mut connection = self.connection.clone();
            let mut call = self.gauge_renew.prepare_invoke();
            call.arg(GAUGE_PLACE_LIFE.as_millis() as u64);
            for (set, member) in batch {
                call.key(set).arg(member);
            }
            let sent =
                tokio::time::timeout(CALL_TIMEOUT * 4, call.invoke_async::<i64>(&mut connection));
            if !matches!(sent.await, Ok(Ok(_))) {
                tracing::warn!("could not renew the open streams' places in Redis");
                return;
            }
        }
    }

    fn rest(&self, now: u64, why: &str) -> Option<Result<(), RetryAfter>> {
        let was = self.resting_until.swap(
            now + REST_AFTER_FAILURE.as_millis() as u64,
            Ordering::Relaxed,
        );
        if was <= now {
            tracing::warn!(
                error = why,
                "Redis failed: limits are per replica for {}s",
                REST_AFTER_FAILURE.as_secs()
            );
        }
        None
    }

    fn millis(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}
