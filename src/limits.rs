//! Who the client is and how much it may ask: the client's address behind trusted proxies, and
//! per-client budgets that remember a bounded number of clients.
//!
//! A budget is a GCRA ("leaky bucket as a meter"): `per_window` requests in any window, at once
//! or spread out. Each client costs one small entry; a budget remembers at most `max_clients`
//! of them, forgetting first those whose budget is full again (they would start afresh anyway)
//! and, under a flood of new addresses, any other — so memory stays bounded whatever arrives.
//!
//! With Redis (`FERRY_REDIS_URL`) a budget is kept there for every replica at once (see
//! [`shared`]); the budget in the replica is what counts while Redis does not answer.

pub mod shared;

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ipnet::IpNet;

pub use shared::SharedCounter;

/// How a client is counted: an IPv4 address, or the /64 an IPv6 address is in (one home or
/// one server is given a whole /64, so a client could otherwise take a fresh address per call).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientKey(u128);

impl ClientKey {
    /// How counters kept elsewhere (the database's throttles) name the client: the IPv4
    /// address, or the IPv6 /64.
    pub fn label(self) -> String {
        let address = std::net::Ipv6Addr::from(self.0);
        match address.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => format!("{address}/64"),
        }
    }

    pub fn of(address: IpAddr) -> ClientKey {
        match address {
            IpAddr::V4(v4) => ClientKey(u128::from(v4.to_ipv6_mapped())),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientKey(u128::from(v4.to_ipv6_mapped())),
                None => ClientKey(u128::from(v6) & !((1u128 << 64) - 1)),
            },
        }
    }
}

/// The client's address: the peer, unless the peer is one of the operator's proxies; then the
/// rightmost `X-Forwarded-For` entry that is not one of them (each proxy appends the address it
/// saw, so entries left of the last untrusted one may have been written by the client itself).
pub fn client_address<'a>(
    peer: IpAddr,
    forwarded_for: impl DoubleEndedIterator<Item = &'a str>,
    trusted: &[IpNet],
) -> IpAddr {
    // A dual-stack listener sees IPv4 peers as `::ffff:a.b.c.d`: compare them as IPv4.
    let peer = peer.to_canonical();
    let is_trusted = |address: &IpAddr| trusted.iter().any(|net| net.contains(address));
    if !is_trusted(&peer) {
        return peer;
    }
    let mut hops = forwarded_for
        .rev()
        .flat_map(|header| header.rsplit(','))
        .map(str::trim);
    let mut client = peer;
    for hop in hops.by_ref() {
        match hop.parse::<IpAddr>().map(|a| a.to_canonical()) {
            Ok(address) if is_trusted(&address) => client = address,
            Ok(address) => return address,
            // A hop the proxies did not write as an address: what is left of it is unknown.
            Err(_) => return client,
        }
    }
    client
}

/// How long to wait before asking again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub Duration);

impl RetryAfter {
    /// Whole seconds, at least one (what `Retry-After` and the messages say).
    pub fn seconds(self) -> u64 {
        (self.0.as_secs() + u64::from(self.0.subsec_nanos() > 0)).max(1)
    }
}

const SHARDS: usize = 16;

/// A per-client budget of `per_window` requests in any `window`.
pub struct Budget<K = ClientKey> {
    /// Time between two requests at the steady rate.
    interval: Duration,
    /// How far ahead of now a client's theoretical arrival time may run (the burst).
    tolerance: Duration,
    per_shard: usize,
    start: Instant,
    hasher: std::hash::RandomState,
    /// Theoretical arrival time per client, as nanoseconds since `start`.
    shards: [Mutex<HashMap<K, u64>>; SHARDS],
    remembered: AtomicUsize,
    /// The budget every replica shares, and its name there.
    shared: Option<(Arc<SharedCounter>, &'static str)>,
}

/// How a budget's client is named in the budget every replica shares.
pub trait BudgetKey: Eq + Hash + Clone {
    fn shared_name(&self) -> String;
}

impl BudgetKey for ClientKey {
    fn shared_name(&self) -> String {
        self.label()
    }
}

impl BudgetKey for String {
    fn shared_name(&self) -> String {
        self.clone()
    }
}

impl BudgetKey for (String, ClientKey) {
    /// The claimed key hashed: what a client sent as a key is not kept in Redis as it came.
    fn shared_name(&self) -> String {
        use sha2::Digest;
        let claimed = sha2::Sha256::digest(self.0.as_bytes());
        format!("{} {}", self.1.label(), hex::encode(&claimed[..12]))
    }
}

impl BudgetKey for () {
    fn shared_name(&self) -> String {
        String::new()
    }
}

impl<K: BudgetKey> Budget<K> {
    pub fn new(per_window: u32, window: Duration, max_clients: usize) -> Budget<K> {
        let per_window = per_window.max(1);
        let interval = window / per_window;
        Budget {
            interval,
            tolerance: window.saturating_sub(interval),
            per_shard: (max_clients / SHARDS).max(1),
            start: Instant::now(),
            hasher: std::hash::RandomState::new(),
            shards: std::array::from_fn(|_| Mutex::new(HashMap::new())),
            remembered: AtomicUsize::new(0),
            shared: None,
        }
    }

    /// Keeps the budget in `counter` for every replica (as `name`), when there is one.
    pub fn shared(mut self, counter: Option<&Arc<SharedCounter>>, name: &'static str) -> Self {
        self.shared = counter.map(|c| (c.clone(), name));
        self
    }

    pub fn per_minute(per_minute: u32, max_clients: usize) -> Budget<K> {
        Budget::new(per_minute, Duration::from_secs(60), max_clients)
    }

    pub fn per_hour(per_hour: u32, max_clients: usize) -> Budget<K> {
        Budget::new(per_hour, Duration::from_secs(3600), max_clients)
    }

    /// Takes one request from `client`'s budget, or says how long until one is free.
    pub async fn take(&self, client: &K) -> Result<(), RetryAfter> {
        self.take_weight(client, 1).await
    }

    /// Takes `weight` requests' worth at once (a costly call), or says how long until there is
    /// room for them. A weight above the whole window's budget is taken as the whole budget.
    pub async fn take_weight(&self, client: &K, weight: u32) -> Result<(), RetryAfter> {
        if let Some(answer) = self.ask_shared(client, weight, true).await {
            // Counted here too: should Redis stop answering, this replica goes on from what
            // it served, not from a fresh budget.
            if answer.is_ok() {
                let _ = self.take_at(client, Instant::now(), weight);
            }
            return answer;
        }
        self.take_at(client, Instant::now(), weight)
    }

    /// Whether `client` has a request left, without taking it.
    pub async fn has_room(&self, client: &K) -> bool {
        if let Some(answer) = self.ask_shared(client, 1, false).await {
            return answer.is_ok();
        }
        let now = self.nanos(Instant::now());
        let shard = self.shard(client).lock().expect("budget lock");
        shard
            .get(client)
            .is_none_or(|&tat| tat.saturating_sub(now) <= self.tolerance.as_nanos() as u64)
    }

    /// Records one use without refusing it (failures that count toward a pause).
    pub async fn count(&self, client: &K) {
        let _ = self.take(client).await;
    }

    /// The shared budget's answer; `None` without one or while Redis does not answer.
    async fn ask_shared(
        &self,
        client: &K,
        weight: u32,
        take: bool,
    ) -> Option<Result<(), RetryAfter>> {
        let (counter, name) = self.shared.as_ref()?;
        let window = self.tolerance + self.interval;
        let cost = self
            .interval
            .checked_mul(weight.max(1))
            .map_or(window, |cost| cost.min(window));
        counter
            .gcra(name, &client.shared_name(), window, cost, take)
            .await
    }

    fn take_at(&self, client: &K, at: Instant, weight: u32) -> Result<(), RetryAfter> {
        let now = self.nanos(at);
        let interval = self.interval.as_nanos() as u64;
        let window = self.tolerance.as_nanos() as u64 + interval;
        let cost = u64::from(weight.max(1))
            .saturating_mul(interval)
            .min(window);
        let mut shard = self.shard(client).lock().expect("budget lock");
        let tat = shard.get(client).copied().unwrap_or(now).max(now);
        let next = tat + cost;
        if next - now > window {
            return Err(RetryAfter(Duration::from_nanos(next - now - window)));
        }
        if !shard.contains_key(client) && shard.len() >= self.per_shard {
            self.make_room(&mut shard, now);
        }
        if shard.insert(client.clone(), next).is_none() {
            self.remembered.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Forgets the clients whose budget is full again; if none, one arbitrary client.
    fn make_room(&self, shard: &mut HashMap<K, u64>, now: u64) {
        let before = shard.len();
        shard.retain(|_, tat| *tat > now);
        if shard.len() >= self.per_shard
            && let Some(any) = shard.keys().next().cloned()
        {
            shard.remove(&any);
        }
        self.remembered
            .fetch_sub(before - shard.len(), Ordering::Relaxed);
    }

    /// How many clients the budget remembers now.
    pub fn remembered(&self) -> usize {
        self.remembered.load(Ordering::Relaxed)
    }

    fn shard(&self, client: &K) -> &Mutex<HashMap<K, u64>> {
        &self.shards[(self.hasher.hash_one(client) as usize) % SHARDS]
    }

    fn nanos(&self, at: Instant) -> u64 {
        at.saturating_duration_since(self.start).as_nanos() as u64
    }
}

/// Counts what is open at once (event streams), per client and in all; an open one holds a
/// [`Permit`] and gives its place back when dropped. With Redis the places per key are counted
/// across replicas too (the total stays this replica's: it guards its own file descriptors).
pub struct Gauge<K: Eq + Hash + Clone> {
    per_key: u32,
    total: u32,
    open: Mutex<(u32, HashMap<K, u32>)>,
    shared: Option<(Arc<SharedCounter>, &'static str)>,
    /// The places this replica holds in Redis (their set and member), renewed while they last.
    held: Mutex<HashMap<String, String>>,
}

pub struct Permit<K: Eq + Hash + Clone> {
    gauge: Arc<Gauge<K>>,
    key: K,
    /// The place in Redis, when there is one: (its set, its member).
    shared: Option<(String, String)>,
}

impl<K: BudgetKey> Gauge<K> {
    pub fn new(per_key: u32, total: u32) -> Gauge<K> {
        Gauge {
            per_key,
            total,
            open: Mutex::new((0, HashMap::new())),
            shared: None,
            held: Mutex::new(HashMap::new()),
        }
    }

    /// Counts the places per key in `counter` for every replica (as `name`), when there is one.
    pub fn shared(mut self, counter: Option<&Arc<SharedCounter>>, name: &'static str) -> Self {
        self.shared = counter.map(|c| (c.clone(), name));
        self
    }

    /// A place for `key`, unless it (on any replica) or everyone here has all theirs.
    pub async fn enter_across_replicas(self: &Arc<Self>, key: K) -> Option<Permit<K>> {
        let mut permit = self.enter(key)?;
        if let Some((counter, name)) = &self.shared {
            let member = uuid::Uuid::new_v4().simple().to_string();
            let set = counter.set_name(name, &permit.key.shared_name());
            match counter.enter(&set, &member, self.per_key).await {
                // Full across the replicas: the place taken here is given back as it drops.
                Some(false) => return None,
                Some(true) => {
                    self.held
                        .lock()
                        .expect("gauge lock")
                        .insert(member.clone(), set.clone());
                    permit.shared = Some((set, member));
                }
                // Redis does not answer: this replica's count is all there is.
                None => {}
            }
        }
        Some(permit)
    }

    /// Keeps this replica's places in Redis from expiring (they lapse by themselves if the
    /// replica dies), every [`shared::GAUGE_RENEW`].
    pub async fn renew_shared_places(self: Arc<Self>) {
        let Some((counter, _)) = &self.shared else {
            return;
        };
        let mut every = tokio::time::interval(shared::GAUGE_RENEW);
        loop {
            every.tick().await;
            let held: Vec<(String, String)> = self
                .held
                .lock()
                .expect("gauge lock")
                .iter()
                .map(|(member, set)| (set.clone(), member.clone()))
                .collect();
            counter.renew(&held).await;
        }
    }

    /// A place for `key` on this replica, unless it or everyone has all theirs.
    pub fn enter(self: &Arc<Self>, key: K) -> Option<Permit<K>> {
        let mut open = self.open.lock().expect("gauge lock");
        let (total, per_key) = &mut *open;
        let mine = per_key.entry(key.clone()).or_insert(0);
        if *mine >= self.per_key || *total >= self.total {
            if *mine == 0 {
                per_key.remove(&key);
            }
            return None;
        }
        *mine += 1;
        *total += 1;
        Some(Permit {
            gauge: self.clone(),
            key,
            shared: None,
        })
    }

    /// How many are open in all.
    pub fn open(&self) -> u32 {
        self.open.lock().expect("gauge lock").0
    }
}

impl<K: Eq + Hash + Clone> Drop for Permit<K> {
    fn drop(&mut self) {
        if let Some((set, member)) = self.shared.take() {
            self.gauge.held.lock().expect("gauge lock").remove(&member);
            if let (Some((counter, _)), Ok(runtime)) =
                (&self.gauge.shared, tokio::runtime::Handle::try_current())
            {
                let counter = counter.clone();
                runtime.spawn(async move { counter.leave(&set, &member).await });
            }
        }
        let mut open = self.gauge.open.lock().expect("gauge lock");
        let (total, per_key) = &mut *open;
        *total = total.saturating_sub(1);
        if let Some(mine) = per_key.get_mut(&self.key) {
            *mine -= 1;
            if *mine == 0 {
                per_key.remove(&self.key);
            }
        }
    }
}

/// How many clients each budget remembers at most (about 50 bytes each).
const MAX_CLIENTS: usize = 100_000;

/// The site's per-client budgets and open-stream gauges, from the settings.
pub struct Limits {
    pub quotes: Budget,
    pub orders: Budget,
    pub registrations: Budget,
    /// Refused partner signatures, per claimed key and client, and per client over all keys.
    pub auth_failures: Budget<(String, ClientKey)>,
    pub auth_failures_by_client: Budget,
    pub streams_by_client: Arc<Gauge<ClientKey>>,
    pub streams_by_order: Arc<Gauge<String>>,
}

impl Limits {
    pub fn new(config: &crate::config::Config, shared: Option<&Arc<SharedCounter>>) -> Limits {
        let failures = config.partner_auth_failures_per_minute;
        Limits {
            quotes: Budget::per_minute(config.quote_rate_per_minute, MAX_CLIENTS)
                .shared(shared, "quotes"),
            orders: Budget::per_minute(config.order_rate_per_minute, MAX_CLIENTS)
                .shared(shared, "orders"),
            registrations: Budget::per_hour(config.register_rate_per_hour, MAX_CLIENTS)
                .shared(shared, "registrations"),
            auth_failures: Budget::per_minute(failures, MAX_CLIENTS)
                .shared(shared, "partner-auth-failures"),
            auth_failures_by_client: Budget::per_minute(failures.saturating_mul(3), MAX_CLIENTS)
                .shared(shared, "partner-auth-failures-by-client"),
            streams_by_client: Arc::new(
                Gauge::new(config.streams_per_client, config.streams_total)
                    .shared(shared, "streams-by-client"),
            ),
            streams_by_order: Arc::new(
                Gauge::new(config.streams_per_order, u32::MAX).shared(shared, "streams-by-order"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn behind_trusted_proxies_the_client_is_the_rightmost_untrusted_hop() {
        let proxies = nets(&["10.0.0.0/8", "fd00::/8"]);
        // The client wrote the first entry itself; the proxy appended what it saw.
        let client = client_address(
            ip("10.0.0.5"),
            ["6.6.6.6, 203.0.113.7"].into_iter(),
            &proxies,
        );
        assert_eq!(client, ip("203.0.113.7"));
        // Two proxies in a row, over two header lines.
        let client = client_address(
            ip("10.0.0.5"),
            ["1.1.1.1, 198.51.100.2", "10.1.1.1"].into_iter(),
            &proxies,
        );
        assert_eq!(client, ip("198.51.100.2"));
        // A peer that is not a proxy is the client, whatever it says.
        let client = client_address(ip("198.51.100.9"), ["1.2.3.4"].into_iter(), &proxies);
        assert_eq!(client, ip("198.51.100.9"));
        // Nothing forwarded, or only proxies: the last proxy is all we know.
        assert_eq!(
            client_address(ip("10.0.0.5"), std::iter::empty(), &proxies),
            ip("10.0.0.5")
        );
        assert_eq!(
            client_address(ip("10.0.0.5"), ["10.2.2.2"].into_iter(), &proxies),
            ip("10.2.2.2")
        );
        // Garbage left of a good hop stops the walk at the last trusted hop.
        assert_eq!(
            client_address(ip("10.0.0.5"), ["junk, 10.3.3.3"].into_iter(), &proxies),
            ip("10.3.3.3")
        );
        // A dual-stack listener: the proxy's IPv4 address arrives mapped into IPv6.
        assert_eq!(
            client_address(ip("::ffff:10.0.0.5"), ["203.0.113.7"].into_iter(), &proxies),
            ip("203.0.113.7")
        );
        assert_eq!(
            client_address(ip("::ffff:198.51.100.9"), std::iter::empty(), &proxies),
            ip("198.51.100.9")
        );
        // No proxies configured: headers are never read.
        assert_eq!(
            client_address(ip("10.0.0.5"), ["203.0.113.7"].into_iter(), &[]),
            ip("10.0.0.5")
        );
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64_and_mapped_ipv4_as_ipv4() {
        assert_eq!(
            ClientKey::of(ip("2001:db8:1:2:aaaa::1")),
            ClientKey::of(ip("2001:db8:1:2:ffff::9"))
        );
        assert_ne!(
            ClientKey::of(ip("2001:db8:1:2::1")),
            ClientKey::of(ip("2001:db8:1:3::1"))
        );
        assert_eq!(
            ClientKey::of(ip("::ffff:203.0.113.7")),
            ClientKey::of(ip("203.0.113.7"))
        );
        assert_ne!(
            ClientKey::of(ip("203.0.113.7")),
            ClientKey::of(ip("203.0.113.8"))
        );
        assert_eq!(ClientKey::of(ip("203.0.113.7")).label(), "203.0.113.7");
        assert_eq!(
            ClientKey::of(ip("2001:db8:1:2:aaaa::1")).label(),
            "2001:db8:1:2::/64"
        );
    }

    #[test]
    fn a_budget_allows_its_burst_then_says_when_to_come_back() {
        let budget: Budget = Budget::new(3, Duration::from_secs(60), 100);
        let client = ClientKey::of(ip("203.0.113.7"));
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(budget.take_at(&client, t0, 1).is_ok());
        }
        let wait = budget.take_at(&client, t0, 1).unwrap_err();
        assert_eq!(wait.0, Duration::from_secs(20));
        assert_eq!(wait.seconds(), 20);
        assert!(
            budget
                .take_at(&client, t0 + Duration::from_secs(20), 1)
                .is_ok()
        );
        let other = ClientKey::of(ip("203.0.113.8"));
        assert!(
            budget.take_at(&other, t0, 1).is_ok(),
            "each client has its own"
        );
    }

    #[test]
    fn a_weighted_call_takes_its_weight_of_the_budget() {
        // FixedFloat's budget: 250 a minute; an order costs 50, a price 1.
        let budget: Budget<()> = Budget::per_minute(250, 1);
        let t0 = Instant::now();
        for _ in 0..5 {
            assert!(budget.take_at(&(), t0, 50).is_ok());
        }
        let wait = budget.take_at(&(), t0, 50).unwrap_err();
        assert_eq!(
            wait.0,
            Duration::from_secs(12),
            "50 units come back in 12 s"
        );
        assert!(
            budget.take_at(&(), t0, 1).is_err(),
            "nothing left for a price either"
        );
        assert!(
            budget
                .take_at(&(), t0 + Duration::from_millis(240), 1)
                .is_ok()
        );
        let huge: Budget<()> = Budget::per_minute(10, 1);
        assert!(
            huge.take_at(&(), t0, 500).is_ok(),
            "capped at the whole budget"
        );
        assert!(huge.take_at(&(), t0, 1).is_err());
    }

    #[test]
    fn a_million_distinct_addresses_keep_the_budget_within_its_bound() {
        let budget: Budget = Budget::per_minute(10, 10_000);
        let t0 = Instant::now();
        for n in 0..1_000_000u32 {
            let client = ClientKey::of(IpAddr::from(n.to_be_bytes()));
            assert!(budget.take_at(&client, t0, 1).is_ok());
        }
        assert!(
            budget.remembered() <= 10_000,
            "{} remembered",
            budget.remembered()
        );
        let total: usize = budget.shards.iter().map(|s| s.lock().unwrap().len()).sum();
        assert_eq!(total, budget.remembered());
        // A client hammering among them is still held to its budget.
        let hammer = ClientKey::of(ip("198.51.100.1"));
        let refused = (0..20)
            .filter(|_| budget.take_at(&hammer, t0, 1).is_err())
            .count();
        assert_eq!(refused, 10);
    }

    #[test]
    fn a_gauge_counts_open_places_per_key_and_in_all() {
        let gauge: Arc<Gauge<String>> = Arc::new(Gauge::new(2, 3));
        let key = |k: &str| k.to_owned();
        let a1 = gauge.enter(key("a")).unwrap();
        let _a2 = gauge.enter(key("a")).unwrap();
        assert!(gauge.enter(key("a")).is_none(), "per key");
        let _b1 = gauge.enter(key("b")).unwrap();
        assert!(gauge.enter(key("c")).is_none(), "in all");
        drop(a1);
        let c1 = gauge.enter(key("c"));
        assert!(c1.is_some(), "a closed one gives its place back");
        assert_eq!(gauge.open(), 3);
        drop(c1);
        assert_eq!(gauge.open(), 2);
    }
}
