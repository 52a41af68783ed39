//! The affiliate programme: who an order is attributed to, the commission ledger (pending while
//! the order runs, available when it completes, reversed when it is refunded or never paid),
//! the partner's statistics and payout requests.

use std::str::FromStr;
use std::sync::Arc;

use rust_decimal::Decimal;

use crate::domain::address::{is_burn_address, validate_address, validate_tag};
use crate::domain::currency::Catalogue;
use crate::domain::order::OrderStatus;
use crate::domain::referral::{ReferralCode, day_of};
use crate::providers::LiquidityProvider;
use crate::services::availability::CurrencySwitches;
use crate::store::{
    ApiKeyRecord, AuditEntry, Commission, DynStore, OrderRecord, Payout, StoreError, UserRecord,
};

/// Days the partner's chart covers.
pub const CHART_DAYS: i64 = 90;
const ORDER_LIST_LIMIT: i64 = 100;

#[derive(Debug, Clone)]
pub struct LedgerSettings {
    /// The partner's share of Ferry's fee on an attributed order, in percent.
    pub share_percent: Decimal,
    /// The highest markup (`afftax`) a partner may add on top of Ferry's fee, in percent.
    pub max_markup_percent: Decimal,
    /// The smallest balance a partner may ask to be paid, in USD.
    pub min_payout_usd: Decimal,
}

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Conflict(String),
    #[error("Payout not found")]
    NotFound,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Commission states, as stored.
pub mod state {
    pub const PENDING: &str = "pending";
    pub const AVAILABLE: &str = "available";
    pub const REVERSED: &str = "reversed";
}

/// Payout request states, as stored.
pub mod payout_status {
    pub const REQUESTED: &str = "requested";
    pub const PAID: &str = "paid";
    pub const REJECTED: &str = "rejected";
}

/// One day of the partner's chart (`day` is the Unix time of its UTC midnight).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DayPoint {
    pub day: i64,
    pub clicks: i64,
    pub orders: i64,
    pub earned_usd: String,
}

/// An attributed order as the partner sees it: no addresses, no token.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AttributedOrder {
    pub id: String,
    pub created_at: i64,
    pub status: String,
    pub from_code: String,
    pub to_code: String,
    pub from_amount: String,
    pub volume_usd: String,
    pub commission_usd: String,
    pub commission_state: String,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct AffiliateSummary {
    pub referral_code: String,
    pub share_percent: String,
    pub min_payout_usd: String,
    pub clicks: i64,
    pub signups: i64,
    pub orders: i64,
    pub completed_orders: i64,
    /// USD volume of completed attributed orders.
    pub volume_usd: String,
    /// Commission on completed orders (paid out or not).
    pub earned_usd: String,
    pub earned_btc: String,
    /// Commission on orders still running.
    pub pending_usd: String,
    /// Earned, less what was paid or is requested.
    pub available_usd: String,
    pub paid_usd: String,
    pub chart: Vec<DayPoint>,
    pub recent_orders: Vec<AttributedOrder>,
    pub payouts: Vec<PayoutView>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PayoutView {
    pub id: String,
    pub amount_usd: String,
    pub currency: String,
    pub address: String,
    pub status: String,
    pub txid: Option<String>,
    pub created_at: i64,
    pub processed_at: Option<i64>,
}

impl From<Payout> for PayoutView {
    fn from(p: Payout) -> Self {
        PayoutView {
            id: p.id,
            amount_usd: p.amount_usd,
            currency: p.currency,
            address: p.address,
            status: p.status,
            txid: p.txid,
            created_at: p.created_at,
            processed_at: p.processed_at,
        }
    }
}

pub struct Ledger {
    store: DynStore,
    catalogue: &'static Catalogue,
    provider: Arc<dyn LiquidityProvider>,
    /// The operator's currency switches: payouts only in currencies Ferry pays out now.
    switches: CurrencySwitches,
    pub settings: LedgerSettings,
}

impl Ledger {
    pub fn new(
        store: DynStore,
        catalogue: &'static Catalogue,
        provider: Arc<dyn LiquidityProvider>,
        switches: CurrencySwitches,
        settings: LedgerSettings,
    ) -> Ledger {
        Ledger {
            store,
            catalogue,
            provider,
            switches,
            settings,
        }
    }

    /// The partner (a user id) a site order is attributed to: the user who referred the
    /// signed-in customer; else the owner of the referral code the visitor carries. Nobody
    /// earns on their own orders.
    pub async fn attribute(
        &self,
        customer: Option<&UserRecord>,
        referral_code: Option<&str>,
    ) -> Result<Option<String>, StoreError> {
        let code = customer
            .and_then(|c| c.referred_by.clone())
            .or_else(|| referral_code.map(str::to_owned));
        let partner = self.code_owner(code.as_deref()).await?;
        Ok(partner
            .filter(|p| customer.is_none_or(|c| c.id != p.id))
            .map(|p| p.id))
    }

    /// The partner an order placed through the partner API is attributed to: the owner of the
    /// `refcode` the request names, when it names a partner; else the key's owner.
    pub async fn attribute_partner_order(
        &self,
        key: &ApiKeyRecord,
        refcode: Option<&str>,
    ) -> Result<Option<String>, StoreError> {
        let named = self.code_owner(refcode).await?;
        Ok(Some(named.map_or_else(|| key.user_id.clone(), |p| p.id)))
    }

    async fn code_owner(&self, code: Option<&str>) -> Result<Option<UserRecord>, StoreError> {
        match code.and_then(ReferralCode::parse) {
            Some(code) => self.store.find_user_by_referral_code(code.as_str()).await,
            None => Ok(None),
        }
    }

    /// A markup (`afftax`) within the configured cap.
    pub fn markup(&self, requested: Option<Decimal>) -> Result<Option<Decimal>, LedgerError> {
        match requested {
            None => Ok(None),
            Some(m) if m.is_zero() => Ok(None),
            Some(m) if m.is_sign_negative() || m > self.settings.max_markup_percent => {
                Err(LedgerError::Invalid(format!(
                    "afftax must be between 0 and {}",
                    self.settings.max_markup_percent.normalize()
                )))
            }
            Some(m) => Ok(Some(m)),
        }
    }

    /// The order's USD volume (what was received, once known) and the partner's commission:
    /// their share of the fee the order was made with, plus their own markup. On the partner's
    /// own orders (placed with their own key) only the markup, which the partner charged on
    /// top: nobody earns a share of Ferry's fee on what they exchange themselves.
    fn commission_of(&self, order: &OrderRecord) -> (Decimal, Decimal) {
        commission_amounts(order, self.settings.share_percent)
    }

    /// The commission of an attributed order as it stands with the order's status: pending
    /// while the order runs, available (valued in BTC at today's price) once it completes,
    /// reversed while it is expired, failed or refunded. A late deposit on an expired order
    /// makes it pending again. Written in the same transaction as the order's change.
    pub fn commission(&self, order: &OrderRecord, now: i64) -> Option<Commission> {
        let partner = order.affiliate_user_id.clone()?;
        let (volume, amount) = self.commission_of(order);
        let state = match order.status {
            OrderStatus::Completed => state::AVAILABLE,
            OrderStatus::Refunded | OrderStatus::Expired | OrderStatus::Failed => state::REVERSED,
            _ => state::PENDING,
        };
        let amount_btc = (state == state::AVAILABLE)
            .then(|| self.btc_value(amount))
            .flatten()
            .map(text);
        Some(Commission {
            order_id: order.id.clone(),
            partner_user_id: partner,
            state: state.into(),
            volume_usd: text(volume),
            amount_usd: text(amount),
            amount_btc,
            created_at: order.created_at,
            updated_at: now,
        })
    }

    fn btc_value(&self, usd: Decimal) -> Option<Decimal> {
        let btc = self.catalogue.get("BTC")?;
        let price = self.provider.reference_usd(btc).unwrap_or(btc.usd);
        (!price.is_zero()).then(|| (usd / price).round_dp(8))
    }

    pub async fn summary(
        &self,
        user: &UserRecord,
        now: i64,
    ) -> Result<AffiliateSummary, StoreError> {
        let commissions = self.store.commissions_of(&user.id).await?;
        let payouts = self.store.payouts_of(&user.id).await?;
        let sum = |state: &str, field: fn(&Commission) -> Decimal| -> Decimal {
            commissions
                .iter()
                .filter(|c| c.state == state)
                .map(field)
                .sum()
        };
        let earned = sum(state::AVAILABLE, |c| dec(&c.amount_usd));
        let earned_btc = sum(state::AVAILABLE, |c| {
            c.amount_btc.as_deref().map_or(Decimal::ZERO, dec)
        });
        let paid: Decimal = payouts
            .iter()
            .filter(|p| p.status == payout_status::PAID)
            .map(|p| dec(&p.amount_usd))
            .sum();
        let first_day = day_of(now) - (CHART_DAYS - 1);
        let clicks = self
            .store
            .referral_clicks_by_day(&user.referral_code, first_day)
            .await?;
        let orders = self
            .store
            .attributed_orders(&user.id, ORDER_LIST_LIMIT)
            .await?;
        Ok(AffiliateSummary {
            referral_code: user.referral_code.clone(),
            share_percent: text(self.settings.share_percent),
            min_payout_usd: text(self.settings.min_payout_usd),
            clicks: self
                .store
                .count_referral_clicks(&user.referral_code)
                .await?,
            signups: self.store.count_referred_users(&user.referral_code).await?,
            orders: commissions.len() as i64,
            completed_orders: commissions
                .iter()
                .filter(|c| c.state == state::AVAILABLE)
                .count() as i64,
            volume_usd: text(sum(state::AVAILABLE, |c| dec(&c.volume_usd)).round_dp(2)),
            earned_usd: text(cents(earned)),
            earned_btc: text(earned_btc.round_dp(8)),
            pending_usd: text(sum(state::PENDING, |c| dec(&c.amount_usd)).round_dp(2)),
            available_usd: text(available(&commissions, &payouts)),
            paid_usd: text(paid.round_dp(2)),
            chart: chart(first_day, &clicks, &commissions),
            recent_orders: attributed_view(&orders, &commissions),
            payouts: payouts.into_iter().map(PayoutView::from).collect(),
        })
    }

    /// Asks for the whole available balance to be paid to `address` in `currency`.
    pub async fn request_payout(
        &self,
        user: &UserRecord,
        currency: &str,
        address: &str,
        tag: Option<&str>,
        now: i64,
    ) -> Result<Payout, LedgerError> {
        let coin = self
            .catalogue
            .get(currency)
            .ok_or_else(|| LedgerError::Invalid("Choose a payout currency".into()))?;
        if !self.switches.state(self.provider.as_ref(), coin).recv {
            return Err(LedgerError::Invalid(format!(
                "{} ({}) payouts are paused; choose another currency",
                coin.coin,
                coin.network_label()
            )));
        }
        let address = address.trim();
        validate_address(coin.family, &coin.network, address).map_err(|_| {
            LedgerError::Invalid(format!(
                "Invalid {} ({}) address",
                coin.coin,
                coin.network_label()
            ))
        })?;
        if is_burn_address(coin.family, address) {
            return Err(LedgerError::Invalid(
                "That address burns whatever is sent to it; enter an address you control".into(),
            ));
        }
        let tag = tag.map(str::trim).filter(|t| !t.is_empty());
        if let Some(tag) = tag {
            if !coin.has_tag() {
                return Err(LedgerError::Invalid(format!(
                    "{} ({}) takes no memo or tag",
                    coin.coin,
                    coin.network_label()
                )));
            }
            validate_tag(coin.family, tag)
                .map_err(|e| LedgerError::Invalid(format!("Invalid tag: {e}")))?;
        }
        let payouts = self.store.payouts_of(&user.id).await?;
        if payouts.iter().any(|p| p.status == payout_status::REQUESTED) {
            return Err(already_open());
        }
        let commissions = self.store.commissions_of(&user.id).await?;
        let amount = available(&commissions, &payouts);
        if amount < self.settings.min_payout_usd {
            return Err(LedgerError::Invalid(format!(
                "The minimum payout is ${}; your available balance is ${}",
                text(self.settings.min_payout_usd),
                text(amount)
            )));
        }
        let payout = Payout {
            id: uuid::Uuid::new_v4().to_string(),
            user_id: user.id.clone(),
            amount_usd: text(amount),
            currency: coin.code.clone(),
            address: address.to_owned(),
            tag: tag.map(str::to_owned),
            status: payout_status::REQUESTED.into(),
            txid: None,
            created_at: now,
            processed_at: None,
        };
        match self.store.insert_payout(&payout).await {
            Ok(()) => Ok(payout),
            Err(StoreError::Conflict) => Err(already_open()),
            Err(e) => Err(e.into()),
        }
    }

    /// The operator's queue (`ferry admin payouts`).
    pub async fn payouts(&self, status: Option<&str>) -> Result<Vec<Payout>, StoreError> {
        self.store.payouts(status, 500).await
    }

    /// Marks an open request paid (with the transaction id) or rejected, with the audit entry
    /// of who did; the entry's id.
    pub async fn close_payout(
        &self,
        id: &str,
        paid: bool,
        txid: Option<&str>,
        now: i64,
        audit: &AuditEntry,
    ) -> Result<i64, LedgerError> {
        let status = if paid {
            payout_status::PAID
        } else {
            payout_status::REJECTED
        };
        match self
            .store
            .close_payout(id, status, txid, now, audit)
            .await?
        {
            Some(audit_id) => Ok(audit_id),
            None if paid && self.held(id).await? => Err(LedgerError::Conflict(
                "The account is locked: unlock it first, or reject the request".into(),
            )),
            None => Err(LedgerError::NotFound),
        }
    }

    /// Whether `id` is an open request of a locked account: held, not to be paid (the store
    /// refuses that in the same UPDATE; this says why).
    async fn held(&self, id: &str) -> Result<bool, StoreError> {
        let open = self
            .store
            .payouts(Some(payout_status::REQUESTED), 500)
            .await?;
        let Some(payout) = open.iter().find(|p| p.id == id) else {
            return Ok(false);
        };
        Ok(self
            .store
            .find_user(&payout.user_id)
            .await?
            .is_some_and(|u| u.locked_at.is_some()))
    }
}

fn already_open() -> LedgerError {
    LedgerError::Conflict("A payout request is already open".into())
}

/// An order's USD volume and its partner's commission (see `Ledger::commission_of`).
fn commission_amounts(order: &OrderRecord, share_percent: Decimal) -> (Decimal, Decimal) {
    let volume = match order.received_amount {
        Some(received) if !order.from_amount.is_zero() => {
            order.from_usd * received / order.from_amount
        }
        _ => order.from_usd,
    };
    let hundred = Decimal::ONE_HUNDRED;
    let own = order.affiliate_user_id.is_some() && order.affiliate_user_id == order.owner_user_id;
    let share = if own {
        Decimal::ZERO
    } else {
        volume * order.fee_percent / hundred * share_percent / hundred
    };
    let markup = order.partner_fee_percent.unwrap_or_default();
    (
        volume.round_dp(2),
        (share + volume * markup / hundred).round_dp(6),
    )
}

/// Whole cents, rounded down: the balance never shows more than can be paid.
fn cents(value: Decimal) -> Decimal {
    value.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::ToZero)
}

/// What may still be paid out: the earned commission less what was paid or is requested,
/// never negative, to the cent, so it equals the earned figure shown while nothing was paid.
fn available(commissions: &[Commission], payouts: &[Payout]) -> Decimal {
    let earned: Decimal = commissions
        .iter()
        .filter(|c| c.state == state::AVAILABLE)
        .map(|c| dec(&c.amount_usd))
        .sum();
    let spent: Decimal = payouts
        .iter()
        .filter(|p| p.status != payout_status::REJECTED)
        .map(|p| dec(&p.amount_usd))
        .sum();
    cents(cents(earned) - spent).max(Decimal::ZERO)
}

fn chart(first_day: i64, clicks: &[(i64, i64)], commissions: &[Commission]) -> Vec<DayPoint> {
    (first_day..first_day + CHART_DAYS)
        .map(|day| {
            let on_day = |t: i64| day_of(t) == day;
            let orders = commissions.iter().filter(|c| on_day(c.created_at)).count() as i64;
            let earned: Decimal = commissions
                .iter()
                .filter(|c| c.state == state::AVAILABLE && on_day(c.updated_at))
                .map(|c| dec(&c.amount_usd))
                .sum();
            DayPoint {
                day: day * 86_400,
                clicks: clicks
                    .iter()
                    .find(|(d, _)| *d == day)
                    .map_or(0, |(_, n)| *n),
                orders,
                earned_usd: text(cents(earned)),
            }
        })
        .collect()
}

fn attributed_view(orders: &[OrderRecord], commissions: &[Commission]) -> Vec<AttributedOrder> {
    orders
        .iter()
        .map(|o| {
            let commission = commissions.iter().find(|c| c.order_id == o.id);
            AttributedOrder {
                id: o.id.clone(),
                created_at: o.created_at,
                status: o.status.as_str().to_owned(),
                from_code: o.from_code.clone(),
                to_code: o.to_code.clone(),
                from_amount: text(o.from_amount),
                volume_usd: commission.map_or_else(|| text(o.from_usd), |c| c.volume_usd.clone()),
                commission_usd: commission.map_or_else(|| "0".into(), |c| c.amount_usd.clone()),
                commission_state: commission
                    .map_or_else(|| state::PENDING.into(), |c| c.state.clone()),
            }
        })
        .collect()
}

fn dec(value: &str) -> Decimal {
    Decimal::from_str(value).unwrap_or(Decimal::ZERO)
}

fn text(value: Decimal) -> String {
    value.normalize().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_available_balance_is_never_negative_and_rounds_down_to_the_cent() {
        let commission = |state: &str, usd: &str| Commission {
            order_id: format!("{state}{usd}"),
            partner_user_id: "p".into(),
            state: state.into(),
            volume_usd: "100".into(),
            amount_usd: usd.into(),
            amount_btc: None,
            created_at: 0,
            updated_at: 0,
        };
        let payout = |status: &str, usd: &str| Payout {
            id: format!("{status}{usd}"),
            user_id: "p".into(),
            amount_usd: usd.into(),
            currency: "BTC".into(),
            address: "a".into(),
            tag: None,
            status: status.into(),
            txid: None,
            created_at: 0,
            processed_at: None,
        };
        let earned = [
            commission(state::AVAILABLE, "10.009"),
            commission(state::PENDING, "5"),
            commission(state::REVERSED, "7"),
        ];
        assert_eq!(available(&earned, &[]), Decimal::new(1000, 2));
        assert_eq!(
            available(
                &earned,
                &[
                    payout(payout_status::PAID, "4"),
                    payout(payout_status::REJECTED, "6")
                ]
            ),
            Decimal::new(600, 2)
        );
        assert_eq!(
            available(&earned, &[payout(payout_status::REQUESTED, "12")]),
            Decimal::ZERO
        );
    }

    #[test]
    fn a_commission_is_a_share_of_the_fee_the_order_was_made_with() {
        let order = |fee: &str| OrderRecord {
            from_usd: Decimal::from(1000),
            from_amount: Decimal::ONE,
            fee_percent: fee.parse().unwrap(),
            affiliate_user_id: Some("partner".into()),
            owner_user_id: Some("customer".into()),
            ..OrderRecord::default()
        };
        // 40 % of a 0.5 % fee on $1,000: $2; the same order made at 1 % earns twice that,
        // whatever the fee is set to today.
        assert_eq!(
            commission_amounts(&order("0.5"), Decimal::from(40)).1,
            Decimal::from(2)
        );
        assert_eq!(
            commission_amounts(&order("1"), Decimal::from(40)).1,
            Decimal::from(4)
        );
        // On one's own order, only one's own markup.
        let mut own = order("0.5");
        own.owner_user_id = Some("partner".into());
        own.partner_fee_percent = Some("0.25".parse().unwrap());
        assert_eq!(
            commission_amounts(&own, Decimal::from(40)).1,
            "2.5".parse::<Decimal>().unwrap()
        );
    }

    #[test]
    fn the_chart_has_one_point_per_day_with_that_days_clicks_and_earnings() {
        let first = 20_000;
        let commission = |state: &str, at: i64| Commission {
            order_id: format!("{state}{at}"),
            partner_user_id: "p".into(),
            state: state.into(),
            volume_usd: "100".into(),
            amount_usd: "0.25".into(),
            amount_btc: None,
            created_at: at,
            updated_at: at,
        };
        let points = chart(
            first,
            &[(first, 3), (first + 89, 1)],
            &[
                commission(state::AVAILABLE, first * 86_400 + 5),
                commission(state::PENDING, first * 86_400 + 6),
                commission(state::AVAILABLE, (first + 1) * 86_400),
            ],
        );
        assert_eq!(points.len(), 90);
        assert_eq!(points[0].day, first * 86_400);
        assert_eq!((points[0].clicks, points[0].orders), (3, 2));
        assert_eq!(points[0].earned_usd, "0.25");
        assert_eq!(points[1].earned_usd, "0.25");
        assert_eq!(points[89].clicks, 1);
        assert_eq!(points[50].earned_usd, "0");
    }
}
