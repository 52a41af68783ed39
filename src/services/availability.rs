//! Which currencies a customer may send and receive right now: the provider's maintenance
//! flags combined with the operator's switches (`ferry admin currency …`), kept in memory so
//! a quote never waits on the database.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use crate::domain::currency::Currency;
use crate::providers::LiquidityProvider;
use crate::store::{CurrencyOverride, Store, StoreError};

/// Send/receive from the customer's side (spec/exchange.md §3): `send` = they may send it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CurrencyState {
    pub send: bool,
    pub recv: bool,
    pub deposit_maintenance: bool,
    pub payout_maintenance: bool,
}

#[derive(Clone, Default)]
pub struct CurrencySwitches {
    overrides: Arc<RwLock<HashMap<String, CurrencyOverride>>>,
    /// Bumped at every reload, so views built from the switches know when to rebuild.
    generation: Arc<AtomicU64>,
}

impl CurrencySwitches {
    /// Reads the operator's switches again (after a change, and periodically for replicas).
    pub async fn reload(&self, store: &dyn Store) -> Result<(), StoreError> {
        let fresh: HashMap<_, _> = store
            .currency_overrides()
            .await?
            .into_iter()
            .map(|o| (o.code.clone(), o))
            .collect();
        let mut overrides = self.overrides.write().expect("switches lock");
        // Read every second: only a change makes the cached lists and files be made again.
        if *overrides != fresh {
            *overrides = fresh;
            self.generation.fetch_add(1, Ordering::Release);
        }
        Ok(())
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    pub fn state(&self, provider: &dyn LiquidityProvider, currency: &Currency) -> CurrencyState {
        let availability = provider.availability(currency);
        let overrides = self.overrides.read().expect("switches lock");
        let switch = overrides.get(&currency.code);
        let allowed = |flag: Option<bool>| flag.unwrap_or(true);
        CurrencyState {
            send: allowed(switch.and_then(|o| o.send_enabled)) && !availability.deposit_maintenance,
            recv: allowed(switch.and_then(|o| o.recv_enabled)) && !availability.payout_maintenance,
            deposit_maintenance: availability.deposit_maintenance,
            payout_maintenance: availability.payout_maintenance,
        }
    }
}
