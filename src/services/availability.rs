//! Which currencies a customer may send and receive right now, and how much: the provider's
//! maintenance flags and limits combined with the operator's switches, maintenance and limits
//! (`ferry admin currency …`, the back office), kept in memory so a quote never waits on the
//! database.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use rust_decimal::Decimal;

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
        // The operator's maintenance stops both ways, as the provider's does, and says why.
        let operator_maintenance = switch.is_some_and(|o| o.maintenance.is_some());
        let deposit_maintenance = availability.deposit_maintenance || operator_maintenance;
        let payout_maintenance = availability.payout_maintenance || operator_maintenance;
        CurrencyState {
            send: allowed(switch.and_then(|o| o.send_enabled)) && !deposit_maintenance,
            recv: allowed(switch.and_then(|o| o.recv_enabled)) && !payout_maintenance,
            deposit_maintenance,
            payout_maintenance,
        }
    }

    /// The message the operator gives customers while the currency is in maintenance.
    pub fn maintenance_notice(&self, code: &str) -> Option<String> {
        let overrides = self.overrides.read().expect("switches lock");
        overrides.get(code).and_then(|o| o.maintenance.clone())
    }

    /// The provider's limits on what a customer sends of `code`, narrowed by the operator's
    /// (the tighter one wins: the provider refuses what is outside its own).
    pub fn send_limits(&self, code: &str, min: Decimal, max: Decimal) -> (Decimal, Decimal) {
        let overrides = self.overrides.read().expect("switches lock");
        match overrides.get(code) {
            None => (min, max),
            Some(o) => (
                o.min_amount.map_or(min, |m| m.max(min)),
                o.max_amount.map_or(max, |m| m.min(max)),
            ),
        }
    }

    /// Every override, for the back office.
    pub fn overrides(&self) -> HashMap<String, CurrencyOverride> {
        self.overrides.read().expect("switches lock").clone()
    }
}
