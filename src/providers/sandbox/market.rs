use std::collections::{HashMap, HashSet};
use std::sync::RwLock;
use std::sync::atomic::{AtomicU8, Ordering};

use async_trait::async_trait;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rust_decimal::Decimal;
use rust_decimal::prelude::FromPrimitive;
use sha2::Digest;

use crate::domain::address::AddressFamily;
use crate::domain::currency::{Catalogue, Currency};
use crate::domain::fees::RateType;
use crate::domain::money::{round_down, round_up};
use crate::providers::{
    Availability, LiquidityProvider, OpenedOrder, OrderRequest, PairMarket, ProviderError,
};

/// Smallest and largest order, in USD.
const MIN_ORDER_USD: i64 = 10;
const MAX_ORDER_USD: i64 = 100_000;
/// The prices never stray further than this from the snapshot (fraction).
const MAX_DRIFT: f64 = 0.10;
/// How much a price jitters from one step to the next (fraction).
const STEP_JITTER: f64 = 0.002;
/// The prices take a step this often (seconds of the clock, the same on every replica).
pub const STEP_SECONDS: i64 = 5;
/// The periods of the slow swings prices follow (in steps: about 40 minutes, 7 hours, 3 days).
const SWING_PERIODS: [f64; 3] = [500.0, 5_000.0, 50_000.0];

#[derive(Debug, Clone)]
pub struct SandboxConfig {
    pub seed: u64,
    /// Currency codes whose deposits and payouts are paused.
    pub maintenance: HashSet<String>,
    /// A moment (Unix seconds) the prices stay at instead of following the clock.
    pub prices_at: Option<i64>,
}

/// What a simulated outage looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SimulatedOutage {
    None,
    Failing,
    Hanging,
}

pub struct SandboxMarket {
    catalogue: &'static Catalogue,
    maintenance: HashSet<String>,
    prices_at: Option<i64>,
    state: RwLock<WalkState>,
    /// A simulated outage (operators and tests use it to see what customers and the status
    /// page see when a provider is down): 0 none, 1 every call fails, 2 every call hangs.
    outage: AtomicU8,
}

struct WalkState {
    seed: u64,
    /// USD price per currency code at the current step: the snapshot's times a multiplier
    /// within 1 ± MAX_DRIFT, worked out once per step rather than on every quote.
    usd: HashMap<String, Decimal>,
    /// The step `usd` is at (the clock ticks every second, the prices every `STEP_SECONDS`).
    step: Option<i64>,
    /// Reserve per currency code, in USD.
    reserve_usd: HashMap<String, Decimal>,
}

impl SandboxMarket {
    pub fn new(catalogue: &'static Catalogue, config: SandboxConfig) -> SandboxMarket {
        let mut rng = StdRng::seed_from_u64(config.seed);
        let reserve_usd = catalogue
            .all()
            .iter()
            .map(|c| {
                (
                    c.code.clone(),
                    Decimal::from(rng.random_range(250_000..2_500_000_i64)),
                )
            })
            .collect();
        let market = SandboxMarket {
            catalogue,
            maintenance: config.maintenance,
            prices_at: config.prices_at,
            state: RwLock::new(WalkState {
                seed: config.seed,
                usd: HashMap::new(),
                step: None,
                reserve_usd,
            }),
            outage: AtomicU8::new(0),
        };
        market.tick();
        market
    }

    /// One step of the random walk for every currency. Stablecoins stay within a cent.
    /// Starts or ends a simulated outage.
    pub fn set_outage(&self, outage: SimulatedOutage) {
        let code = match outage {
            SimulatedOutage::None => 0,
            SimulatedOutage::Failing => 1,
            SimulatedOutage::Hanging => 2,
        };
        self.outage.store(code, Ordering::Relaxed);
    }

    async fn check_up(&self) -> Result<(), ProviderError> {
        match self.outage.load(Ordering::Relaxed) {
            0 => Ok(()),
            1 => Err(ProviderError::Unavailable("simulated outage".into())),
            // A provider that never answers: only a caller's deadline ends the wait.
            _ => std::future::pending().await,
        }
    }

    /// Moves the prices to the clock's current step (or holds them where they were configured
    /// to stay).
    pub fn tick(&self) {
        self.move_to(self.prices_at.unwrap_or_else(crate::now_unix));
    }

    /// Sets every price to what it is at `unix_seconds`: a function of the seed, the coin and
    /// the clock's step only, so replicas sharing a seed quote alike (and a fixed quote made on
    /// one is checked on another against the same figures). Slow swings of a few periods with
    /// seeded phases, and a seeded jitter per step; stablecoins stay within a cent.
    pub fn move_to(&self, unix_seconds: i64) {
        let step = unix_seconds.div_euclid(STEP_SECONDS);
        let seed = {
            let state = self.state.read().expect("sandbox state lock");
            if state.step == Some(step) {
                return;
            }
            state.seed
        };
        // Worked out before the write lock: quotes read the last step's prices meanwhile.
        let usd = self
            .catalogue
            .all()
            .iter()
            .map(|currency| {
                let limit = if is_stable(currency) { 0.01 } else { MAX_DRIFT };
                let factor = 1.0 + limit * swing(seed, &currency.code, step);
                let factor = Decimal::from_f64(factor).unwrap_or(Decimal::ONE);
                (currency.code.clone(), (currency.usd * factor).round_dp(12))
            })
            .collect();
        let mut state = self.state.write().expect("sandbox state lock");
        state.usd = usd;
        state.step = Some(step);
    }

    /// The simulated USD price of one unit of `currency` right now.
    pub fn usd_price(&self, currency: &Currency) -> Decimal {
        let state = self.state.read().expect("sandbox state lock");
        state
            .usd
            .get(&currency.code)
            .copied()
            .unwrap_or_else(|| currency.usd.round_dp(12))
    }

    fn reserve_usd(&self, currency: &Currency) -> Decimal {
        let state = self.state.read().expect("sandbox state lock");
        state
            .reserve_usd
            .get(&currency.code)
            .copied()
            .unwrap_or(Decimal::from(1_000_000))
    }
}

/// Where a coin's price stands at `step`, in -1..=1: three slow swings with seeded phases (their
/// weights sum to 0.9) and a seeded jitter of the step itself.
fn swing(seed: u64, code: &str, step: i64) -> f64 {
    let unit = |salt: &str, at: i64| -> f64 {
        let digest = sha2::Sha256::digest(format!("{seed}:{code}:{salt}:{at}"));
        let bits = u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"));
        bits as f64 / u64::MAX as f64
    };
    let t = step as f64;
    let swings: f64 = SWING_PERIODS
        .iter()
        .zip([0.5, 0.3, 0.1])
        .map(|(period, weight)| {
            let phase = unit("phase", period.to_bits() as i64) * std::f64::consts::TAU;
            weight * (std::f64::consts::TAU * t / period + phase).sin()
        })
        .sum();
    let jitter = (unit("jitter", step) * 2.0 - 1.0) * (STEP_JITTER / MAX_DRIFT);
    (swings + jitter).clamp(-1.0, 1.0)
}

fn is_stable(currency: &Currency) -> bool {
    matches!(
        currency.coin.as_str(),
        "USDT" | "USDC" | "DAI" | "TUSD" | "FDUSD" | "USDE" | "PYUSD"
    )
}

/// What moving a coin on its network costs, in USD: the payout fee Ferry passes on.
fn network_fee_usd(currency: &Currency) -> Decimal {
    let cents: i64 = match currency.network.as_str() {
        "BTC" => 150,
        "ETH" => 200,
        "TRX" => 100,
        "LTC" | "BCH" | "DOGE" | "DASH" | "ZEC" => 5,
        "XMR" => 3,
        "BSC" | "POL" | "ARB" | "OP" | "BASE" | "AVAXC" => 10,
        "SOL" | "XRP" | "XLM" | "TON" | "ALGO" | "NEAR" | "LN" => 1,
        _ => 20,
    };
    Decimal::new(cents, 2)
}

#[async_trait]
impl LiquidityProvider for SandboxMarket {
    fn name(&self) -> &'static str {
        "sandbox"
    }

    fn availability(&self, currency: &Currency) -> Availability {
        let paused = self.maintenance.contains(&currency.code);
        Availability {
            deposit_maintenance: paused,
            payout_maintenance: paused,
        }
    }

    fn reference_usd(&self, currency: &Currency) -> Option<Decimal> {
        Some(self.usd_price(currency))
    }

    /// Ferry follows a sandbox order itself: it needs only a fresh address that passes the
    /// real validators.
    async fn open_order(&self, request: &OrderRequest<'_>) -> Result<OpenedOrder, ProviderError> {
        self.check_up().await?;
        let (deposit_address, deposit_tag) = match request.from.family {
            AddressFamily::Bolt11 => (
                super::addresses::lightning_invoice(request.send_amount, request.deposit_seconds)
                    .ok_or_else(|| {
                    ProviderError::Rejected("Lightning cannot carry this amount".into())
                })?,
                None,
            ),
            _ => super::addresses::deposit_address(request.from, &mut rand::rng()),
        };
        Ok(OpenedOrder {
            provider: self.name(),
            deposit_address,
            deposit_tag,
            upstream: None,
        })
    }

    async fn market(
        &self,
        from: &Currency,
        to: &Currency,
        _rate_type: RateType,
    ) -> Result<PairMarket, ProviderError> {
        self.check_up().await?;
        let from_usd = self.usd_price(from);
        let to_usd = self.usd_price(to);
        if from_usd.is_zero() || to_usd.is_zero() {
            return Err(ProviderError::Unavailable("no price".into()));
        }
        Ok(PairMarket {
            rate: from_usd / to_usd,
            from_usd,
            to_usd,
            min_from: round_up(Decimal::from(MIN_ORDER_USD) / from_usd, from.precision),
            max_from: round_down(Decimal::from(MAX_ORDER_USD) / from_usd, from.precision),
            reserve_to: round_down(self.reserve_usd(to) / to_usd, to.precision),
            network_fee_to: round_up(network_fee_usd(to) / to_usd, to.precision),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn market(seed: u64) -> SandboxMarket {
        SandboxMarket::new(
            Catalogue::embedded(),
            SandboxConfig {
                seed,
                maintenance: HashSet::from(["XMR".to_owned()]),
                prices_at: None,
            },
        )
    }

    fn get(code: &str) -> &'static Currency {
        Catalogue::embedded().get(code).unwrap()
    }

    #[tokio::test]
    async fn limits_are_about_ten_to_a_hundred_thousand_dollars() {
        let m = market(1)
            .market(get("BTC"), get("ETH"), RateType::Float)
            .await
            .unwrap();
        let min_usd = m.min_from * m.from_usd;
        let max_usd = m.max_from * m.from_usd;
        assert!(
            min_usd >= Decimal::from(10) && min_usd < Decimal::from(11),
            "{min_usd}"
        );
        assert!(
            max_usd <= Decimal::from(100_000) && max_usd > Decimal::from(99_000),
            "{max_usd}"
        );
        assert_eq!(m.rate, m.from_usd / m.to_usd);
        assert!(m.network_fee_to > Decimal::ZERO);
    }

    #[test]
    fn replicas_with_one_seed_and_one_clock_quote_alike_and_prices_stay_bounded() {
        // Two replicas started at different times, asked within one step.
        let (a, b, c) = (market(7), market(7), market(8));
        let (btc, usdt) = (get("BTC"), get("USDT"));
        let mut moved = false;
        let mut previous = None;
        for step in 0..3_000_i64 {
            let now = 1_790_000_000 + step * STEP_SECONDS;
            a.move_to(now);
            b.move_to(now + STEP_SECONDS - 1);
            c.move_to(now);
            assert_eq!(
                a.usd_price(btc),
                b.usd_price(btc),
                "the same step, the same price"
            );
            let ratio = a.usd_price(btc) / btc.usd;
            assert!(
                ratio >= Decimal::new(9, 1) && ratio <= Decimal::new(11, 1),
                "{ratio}"
            );
            let stable = a.usd_price(usdt);
            assert!(
                stable >= Decimal::new(99, 2) && stable <= Decimal::new(101, 2),
                "{stable}"
            );
            moved |= previous.is_some_and(|p| p != a.usd_price(btc));
            previous = Some(a.usd_price(btc));
        }
        assert!(moved, "prices move from step to step");
        assert_ne!(
            a.usd_price(btc),
            c.usd_price(btc),
            "another seed, another market"
        );
        // One step moves a price by little: a quote's figures hold from one step to the next.
        a.move_to(1_790_000_000);
        let before = a.usd_price(btc);
        a.move_to(1_790_000_000 + STEP_SECONDS);
        let change = ((a.usd_price(btc) - before) / before).abs();
        assert!(change < Decimal::new(1, 2), "{change}");
    }

    #[test]
    fn prices_set_at_a_moment_stay_there_whatever_the_clock() {
        let moment = 1_790_000_000;
        let still = SandboxMarket::new(
            Catalogue::embedded(),
            SandboxConfig {
                seed: 7,
                maintenance: HashSet::new(),
                prices_at: Some(moment),
            },
        );
        let walking = market(7);
        walking.move_to(moment);
        let btc = get("BTC");
        still.tick();
        assert_eq!(still.usd_price(btc), walking.usd_price(btc));
        walking.move_to(moment + 40 * STEP_SECONDS);
        assert_ne!(
            still.usd_price(btc),
            walking.usd_price(btc),
            "the clock moves the others"
        );
    }

    #[test]
    fn maintenance_flags_come_from_the_configuration() {
        let m = market(1);
        assert!(m.availability(get("XMR")).deposit_maintenance);
        assert!(!m.availability(get("BTC")).payout_maintenance);
    }
}
