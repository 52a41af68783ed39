//! An order after it is made: its deposit, the steps the sandbox simulates or an upstream
//! reports, expiry and late deposits, the customer's emergency choice and refund address.

use rust_decimal::Decimal;

use super::{OrderError, Orders, non_empty};
use crate::domain::address::AddressFamily;
use crate::domain::currency::Currency;
use crate::domain::fees::{self, Direction, QuoteInput, RateType};
use crate::domain::money::{round_down, to_wire};
use crate::domain::order::{
    EmergencyChoice, EmergencyReason, OrderEvent, OrderStatus, events_toward,
};
use crate::domain::transaction::{Explorers, Transaction};
use crate::providers::sandbox::transactions::transaction_id;
use crate::providers::{PairMarket, ProviderError, UpstreamRef, UpstreamState};
use crate::services::quotes::QuoteError;
use crate::store::{AuditEntry, MailRecord, OrderEffects, OrderRecord};

/// What a refund sends back and the network fee it pays, in the send coin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refund {
    pub amount: Decimal,
    pub fee: Decimal,
}

/// Orders the worker takes in one round: many when each step is work in memory (the
/// sandbox), fewer when each is a call to an upstream that may take its whole timeout.
const BATCH: i64 = 50;
const REMOTE_BATCH: i64 = 10;
/// The lease on a batch of steps in memory; a batch of upstream calls gets each call's timeout
/// on top. A replica that dies holding a lease delays those orders by at most this long.
const LEASE_SECONDS: i64 = 30;
/// A step that failed (the database or the provider did) is tried again this much later.
const FAILED_STEP_RETRY_SECONDS: i64 = 5;
/// The longest wait between two looks at an upstream order that has stopped moving.
const MAX_LOOK_INTERVAL_SECONDS: i64 = 3600;
/// An upstream order nothing has happened to for this long is no longer looked at by itself
/// (an operator looks at it): an emergency nobody answers, a failure nobody refunds.
const GIVE_UP_LOOKING_AFTER_SECONDS: i64 = 30 * 86_400;

impl Orders {
    /// A (simulated) deposit of `amount` (default: exactly what was ordered); `audit` when an
    /// operator's act, not the customer's, simulates it.
    pub async fn deposit(
        &self,
        id: &str,
        amount: Option<Decimal>,
        now: i64,
        audit: Option<AuditEntry>,
    ) -> Result<OrderRecord, OrderError> {
        let order = self.find(id).await?;
        let audit = audit.map(|entry| AuditEntry {
            before: Some(super::audit_view(&order)),
            ..entry
        });
        let from = self.currency_of(&order.from_code)?;
        let received = round_down(amount.unwrap_or(order.from_amount), from.precision);
        if received <= Decimal::ZERO {
            return Err(OrderError::Invalid(
                "The deposit must be greater than zero".into(),
            ));
        }
        let mut next = order.clone();
        next.received_amount = Some(received);
        next.transactions.deposit =
            Some(self.sandbox_transaction(&order, from, "deposit", received, None, 0, now));
        let event = match order.status {
            // A deposit after the window closed: the customer chooses a refund or the exchange.
            OrderStatus::Expired if !order.is_final(now) => {
                OrderEvent::Problem(EmergencyReason::Expired)
            }
            OrderStatus::Expired => {
                return Err(OrderError::Conflict(
                    "The order is closed: its deposit window ended more than a day ago".into(),
                ));
            }
            OrderStatus::New => self.judge_deposit(&order, &mut next, received, now).await?,
            _ => {
                return Err(OrderError::Conflict(
                    "The order is not awaiting a deposit".into(),
                ));
            }
        };
        // The customer is asked about a deposit only once it is confirmed (as upstreams do):
        // it is final whatever they choose, so it shows its confirmations from now on.
        if let (OrderEvent::Problem(_), Some(deposit)) = (&event, &mut next.transactions.deposit) {
            deposit.confirmations = Some(from.confirmations);
        }
        let detail = match event {
            OrderEvent::Problem(reason) => format!(
                "deposit of {} {}: {}",
                to_wire(received),
                from.coin,
                reason.as_str()
            ),
            _ => format!("deposit of {} {} detected", to_wire(received), from.coin),
        };
        self.transition_audited(next, event, now, &detail, audit)
            .await
    }

    /// Decides what a deposit on a NEW order means: fine, or a problem for the customer.
    async fn judge_deposit(
        &self,
        order: &OrderRecord,
        next: &mut OrderRecord,
        received: Decimal,
        now: i64,
    ) -> Result<OrderEvent, OrderError> {
        if order.rate_type == RateType::Fixed {
            if received < order.from_amount {
                return Ok(OrderEvent::Problem(EmergencyReason::Less));
            }
            if received > order.from_amount {
                return Ok(OrderEvent::Problem(EmergencyReason::More));
            }
            let late = order.rate_expires_at.is_some_and(|t| now > t);
            if late
                && fees::moved_beyond_tolerance(
                    order.rate,
                    self.current_rate(order, received).await?,
                )
            {
                return Ok(OrderEvent::Problem(EmergencyReason::Rate));
            }
            return Ok(OrderEvent::DepositDetected);
        }
        let (_, _, market) = self.market_of(order).await?;
        // The operator's limits too: a maximum is a risk cap that a float deposit must not pass.
        let (min, max) =
            self.switches
                .send_limits(&order.from_code, market.min_from, market.max_from);
        if received < min || received > max {
            return Ok(OrderEvent::Problem(EmergencyReason::Limit));
        }
        next.to_amount = self.payout_for(order, received).await?;
        Ok(OrderEvent::DepositDetected)
    }

    /// The order's two currencies and their market right now.
    async fn market_of(
        &self,
        order: &OrderRecord,
    ) -> Result<(&'static Currency, &'static Currency, PairMarket), OrderError> {
        let from = self.currency_of(&order.from_code)?;
        let to = self.currency_of(&order.to_code)?;
        let market = self
            .provider
            .market(from, to, order.rate_type)
            .await
            .map_err(QuoteError::from)?;
        Ok((from, to, market))
    }

    /// What `received` buys at the current market, after the fees the order was made with.
    async fn payout_for(
        &self,
        order: &OrderRecord,
        received: Decimal,
    ) -> Result<Decimal, OrderError> {
        let (from, to, market) = self.market_of(order).await?;
        let amounts = fees::quote(QuoteInput {
            direction: Direction::From,
            amount: received,
            market_rate: market.rate,
            fee_percent: order.total_fee_percent(),
            network_fee: market.network_fee_to,
            from_precision: from.precision,
            to_precision: to.precision,
        });
        amounts.map(|a| a.to).ok_or_else(|| {
            OrderError::Conflict(
                "What arrived is too little to exchange after the fees; choose a refund".into(),
            )
        })
    }

    /// What continuing the exchange of `received` pays out now, if the pair can take that much:
    /// within its limits and the provider's reserve (a deposit far off the order is no blank
    /// cheque at today's rate).
    async fn continued_payout(
        &self,
        order: &OrderRecord,
        received: Decimal,
    ) -> Result<Decimal, OrderError> {
        let (from, to, market) = self.market_of(order).await?;
        let refund_only =
            |why: String| OrderError::Conflict(format!("{why}: this deposit can only be refunded"));
        let (min, max) =
            self.switches
                .send_limits(&order.from_code, market.min_from, market.max_from);
        if received < min {
            return Err(refund_only(format!(
                "It is below the minimum of {} {}",
                to_wire(min),
                from.coin
            )));
        }
        if received > max {
            return Err(refund_only(format!(
                "It is above the maximum of {} {}",
                to_wire(max),
                from.coin
            )));
        }
        let payout = self.payout_for(order, received).await?;
        // A Lightning invoice is paid its own amount or not at all.
        if to.family == AddressFamily::Bolt11 && payout != order.to_amount {
            return Err(refund_only(format!(
                "The Lightning invoice asks for exactly {} BTC",
                to_wire(order.to_amount)
            )));
        }
        if payout > market.reserve_to {
            return Err(refund_only(format!("Not enough {} is available", to.coin)));
        }
        Ok(payout)
    }

    /// What a refund of the deposit sends back: what arrived, less the send coin's network
    /// fee (never below zero).
    pub async fn refund_of(&self, order: &OrderRecord) -> Result<Refund, OrderError> {
        let from = self.currency_of(&order.from_code)?;
        let to = self.currency_of(&order.to_code)?;
        // The network fee of paying out the send coin: its fee as the receive side of the
        // reverse pair.
        let fee = self
            .provider
            .market(to, from, order.rate_type)
            .await
            .map_err(QuoteError::from)?
            .network_fee_to;
        let received = order.received_amount.unwrap_or(order.from_amount);
        Ok(Refund {
            amount: round_down((received - fee).max(Decimal::ZERO), from.precision),
            fee,
        })
    }

    /// What continuing the exchange would pay out now, or why it cannot be continued (the
    /// emergency panel shows both outcomes before the customer chooses).
    pub async fn continue_outcome(&self, order: &OrderRecord) -> Result<Decimal, OrderError> {
        let received = order.received_amount.unwrap_or(order.from_amount);
        self.continued_payout(order, received).await
    }

    /// A transaction the sandbox simulates on `currency`'s chain, with an id as that chain
    /// writes them (the same id for the same order and side).
    #[allow(clippy::too_many_arguments)]
    fn sandbox_transaction(
        &self,
        order: &OrderRecord,
        currency: &Currency,
        side: &str,
        amount: Decimal,
        fee: Option<Decimal>,
        confirmations: u32,
        now: i64,
    ) -> Transaction {
        let format = Explorers::embedded().format(&currency.network);
        Transaction {
            id: transaction_id(format, &format!("{}:{side}", order.id)),
            amount,
            fee,
            confirmations: Some(confirmations),
            at: now,
        }
    }

    async fn current_rate(
        &self,
        order: &OrderRecord,
        received: Decimal,
    ) -> Result<Decimal, OrderError> {
        let payout = self.payout_for(order, received).await?;
        Ok(if received.is_zero() {
            Decimal::ZERO
        } else {
            payout / received
        })
    }

    /// The customer's decision on an order in EMERGENCY. It is final: of two requests only one
    /// is taken, and a second choice is refused. An order an upstream fills gets it passed on
    /// once; if the upstream refuses it, the choice is undone and the customer told why.
    ///
    /// An operator may make it for the customer (`audit`, written with the choice). At an
    /// upstream the choice can still be refused after it was recorded, and then it is undone:
    /// that entry keeps no `Idempotency-Key`, so a retry is told the order's state, never a
    /// replayed success.
    pub async fn choose(
        &self,
        order: OrderRecord,
        choice: EmergencyChoice,
        refund_address: Option<&str>,
        refund_tag: Option<&str>,
        now: i64,
        audit: Option<AuditEntry>,
    ) -> Result<OrderRecord, OrderError> {
        // A failed order is refunded by an operator only (with `audit`), once its deposit came.
        let refunding_failure = order.status == OrderStatus::Failed
            && choice == EmergencyChoice::Refund
            && audit.is_some()
            && operator_may_refund(&order);
        if order.status != OrderStatus::Emergency && !refunding_failure {
            return Err(OrderError::Conflict(
                "The order does not need a decision".into(),
            ));
        }
        if let Some(made) = order.emergency_choice {
            return Err(OrderError::Conflict(format!(
                "The choice was already made: {}",
                made.as_str()
            )));
        }
        let mut next = order.clone();
        if choice == EmergencyChoice::Refund {
            if let Some(address) = non_empty(refund_address) {
                self.apply_refund_address(&mut next, address, refund_tag, now)
                    .await?;
            }
            if next.refund_address.is_none() {
                return Err(OrderError::Invalid("Enter a refund address".into()));
            }
        }
        next.emergency_choice = Some(choice);
        next.updated_at = now;
        // An operator who gives the refund address tells the customer where it goes.
        let mails = if audit.is_some() {
            self.refund_address_mails(&order, &next, now).await?
        } else {
            Vec::new()
        };
        let audit = audit.map(|entry| AuditEntry {
            subject_kind: "order".into(),
            subject_id: order.id.clone(),
            before: Some(super::audit_view(&order)),
            ..entry
        });
        if order.provider_order_id.is_none() {
            return self
                .choose_in_sandbox(next, choice, now, audit, mails)
                .await;
        }
        // Recorded first: from here the choice is final, whatever happens next.
        next.next_step_at = Some(now + self.settings.provider_poll_seconds);
        let audit = audit.map(|entry| AuditEntry {
            after: Some(super::audit_view(&next)),
            request_key: None,
            request_hash: None,
            ..entry
        });
        let effects = OrderEffects {
            audit: audit.clone(),
            mails,
            ..OrderEffects::default()
        };
        let recorded = self.write(next, None, &effects).await?;
        match self.pass_choice_on(&recorded).await {
            Ok(()) => {}
            Err(ProviderError::Rejected(reason)) => {
                let mut undone = recorded.clone();
                undone.emergency_choice = None;
                undone.refund_address = order.refund_address.clone();
                undone.refund_tag = order.refund_tag.clone();
                // The log keeps the act and, beside it, that the upstream refused it.
                let effects = OrderEffects {
                    audit: audit.map(|entry| AuditEntry {
                        action: format!("{}.refused", entry.action),
                        reason: Some(format!("Refused by the upstream: {reason}")),
                        before: entry.after,
                        after: Some(super::audit_view(&undone)),
                        at: crate::now_unix(),
                        ..entry
                    }),
                    ..OrderEffects::default()
                };
                self.write(undone, None, &effects).await?;
                return Err(OrderError::Conflict(reason));
            }
            Err(error) => {
                // Kept: the order worker passes it on when the provider answers again.
                tracing::warn!(order.id = %recorded.id, error = %error, "emergency choice not passed on yet");
                return Ok(recorded);
            }
        }
        // Follow what the provider made of it at once, so the page moves on.
        let id = recorded.id.clone();
        if let Err(error) = self.follow_upstream(recorded, now).await {
            tracing::warn!(order.id = %id, error = %error, "could not look at the order after the choice");
        }
        self.find(&id).await
    }

    /// The sandbox takes the choice itself: continue now, or refund at its next step.
    async fn choose_in_sandbox(
        &self,
        mut next: OrderRecord,
        choice: EmergencyChoice,
        now: i64,
        audit: Option<AuditEntry>,
        mails: Vec<MailRecord>,
    ) -> Result<OrderRecord, OrderError> {
        match choice {
            EmergencyChoice::Refund => {
                next.next_step_at = Some(now + self.settings.sandbox_step_seconds);
                let effects = OrderEffects {
                    audit: audit.map(|entry| AuditEntry {
                        after: Some(super::audit_view(&next)),
                        ..entry
                    }),
                    mails,
                    ..OrderEffects::default()
                };
                self.write(next, None, &effects).await
            }
            EmergencyChoice::Exchange => {
                let received = next.received_amount.unwrap_or(next.from_amount);
                next.to_amount = self.continued_payout(&next, received).await?;
                let detail = "continue chosen";
                self.transition_audited(next, OrderEvent::ContinueChosen, now, detail, audit)
                    .await
            }
        }
    }

    /// Passes the recorded choice (with the refund address) to the upstream that fills the order.
    async fn pass_choice_on(&self, order: &OrderRecord) -> Result<(), ProviderError> {
        let (Some(reference), Some(choice)) = (upstream_ref(order), order.emergency_choice) else {
            return Ok(());
        };
        let refund = match choice {
            EmergencyChoice::Refund => order
                .refund_address
                .as_deref()
                .map(|a| (a, order.refund_tag.as_deref())),
            EmergencyChoice::Exchange => None,
        };
        self.provider.choose(&reference, choice, refund).await
    }

    /// Sets or changes the refund address while the order runs. Once a refund was chosen the
    /// address is on its way (at an upstream, it went with the choice) and cannot change.
    pub async fn set_refund_address(
        &self,
        order: OrderRecord,
        address: &str,
        tag: Option<&str>,
        now: i64,
        audit: Option<AuditEntry>,
    ) -> Result<OrderRecord, OrderError> {
        if order.is_final(now) {
            return Err(OrderError::Conflict("The order is finished".into()));
        }
        if order.emergency_choice == Some(EmergencyChoice::Refund) {
            return Err(OrderError::Conflict(
                "The refund was already chosen with its address; it cannot change now".into(),
            ));
        }
        let mut next = order.clone();
        self.apply_refund_address(&mut next, address, tag, now)
            .await?;
        next.updated_at = now;
        let by_operator = audit.is_some();
        let mut effects = super::audited(audit, &order, &next);
        if by_operator {
            effects.mails = self.refund_address_mails(&order, &next, now).await?;
        }
        self.write(next, None, &effects).await
    }

    /// An operator's "look again now": the order's next step (the sandbox's, or a look at
    /// the upstream) is due at once. Only for an order that is moving on its own.
    pub async fn retry_now(
        &self,
        order: OrderRecord,
        now: i64,
        audit: AuditEntry,
    ) -> Result<OrderRecord, OrderError> {
        if !can_retry(&order, now) {
            return Err(OrderError::Conflict(
                "Only an order that is moving on its own can be tried again".into(),
            ));
        }
        // Due already (a worker may be on it now): another look at once would only ask the
        // upstream twice.
        if order
            .next_step_at
            .is_some_and(|at| at <= now + RETRY_GAP_SECONDS)
        {
            return Err(OrderError::Conflict(
                "The order's next step is due already; look again in a minute".into(),
            ));
        }
        let mut next = order.clone();
        next.next_step_at = Some(now);
        let effects = super::audited(Some(audit), &order, &next);
        self.write(next, None, &effects).await
    }

    /// Moves every order whose step is due one step on. Returns how many moved.
    pub async fn advance_due(&self, owner: &str, now: i64) -> Result<usize, OrderError> {
        // The lease covers the whole batch, even if every call waits for its full timeout.
        let (batch, lease) = if self.provider.is_remote() {
            let calls = REMOTE_BATCH * self.settings.provider_timeout_seconds.max(1);
            (REMOTE_BATCH, LEASE_SECONDS + calls)
        } else {
            (BATCH, LEASE_SECONDS)
        };
        let due = self
            .store
            .lease_due_orders(now, owner, lease, batch)
            .await?;
        let mut moved = 0;
        for order in due {
            let id = order.id.clone();
            match self.advance(order, now).await {
                Ok(()) => moved += 1,
                Err(error) => {
                    tracing::warn!(order.id = %id, error = %error, "could not advance an order");
                    // Nothing of the step was written: it is tried again soon, by this replica
                    // or another, behind the steps that are due (a failing order cannot
                    // hold up the queue).
                    self.store
                        .retry_later(&id, owner, now + FAILED_STEP_RETRY_SECONDS)
                        .await?;
                }
            }
        }
        Ok(moved)
    }

    async fn advance(&self, order: OrderRecord, now: i64) -> Result<(), OrderError> {
        if order.provider_order_id.is_some() {
            return self.follow_upstream(order, now).await;
        }
        let step = self.settings.sandbox_step_seconds;
        let mut next = order.clone();
        let (event, detail, next_step) = match order.status {
            OrderStatus::New => {
                // The autopilot pays exactly what was ordered.
                self.deposit(&order.id, None, now, None).await?;
                return Ok(());
            }
            OrderStatus::Confirming => {
                let from = self.currency_of(&order.from_code)?;
                if let Some(deposit) = &mut next.transactions.deposit {
                    deposit.confirmations = Some(from.confirmations);
                }
                let detail = format!("{} confirmations reached", from.confirmations);
                (OrderEvent::DepositConfirmed, detail, Some(now + step))
            }
            OrderStatus::Exchange => {
                let (_, to, market) = self.market_of(&order).await?;
                next.payout_amount = Some(order.to_amount);
                next.transactions.payout = Some(self.sandbox_transaction(
                    &order,
                    to,
                    "payout",
                    order.to_amount,
                    Some(market.network_fee_to),
                    0,
                    now,
                ));
                (
                    OrderEvent::Exchanged,
                    "exchanged".to_owned(),
                    Some(now + step),
                )
            }
            OrderStatus::Sending => {
                if let Some(payout) = &mut next.transactions.payout {
                    payout.confirmations = Some(1);
                }
                (OrderEvent::PayoutSent, "payout sent".to_owned(), None)
            }
            OrderStatus::Emergency | OrderStatus::Failed
                if order.emergency_choice == Some(EmergencyChoice::Refund) =>
            {
                let from = self.currency_of(&order.from_code)?;
                let mut refund = self.refund_of(&order).await?;
                // A Lightning refund pays the customer's invoice its own amount (at most what
                // arrived: checked when it was given).
                if from.family == AddressFamily::Bolt11
                    && let Some(invoice) = order.refund_address.as_deref()
                {
                    match crate::domain::lightning::decode(invoice, now) {
                        Ok(invoice) => refund.amount = invoice.amount,
                        Err(_) => return self.ask_again_for_refund_invoice(next, now).await,
                    }
                }
                next.transactions.refund = Some(self.sandbox_transaction(
                    &order,
                    from,
                    "refund",
                    refund.amount,
                    Some(refund.fee),
                    1,
                    now,
                ));
                (OrderEvent::Refunded, "refund sent".to_owned(), None)
            }
            _ => {
                next.next_step_at = None;
                next.updated_at = now;
                self.write(next, None, &OrderEffects::default()).await?;
                return Ok(());
            }
        };
        next.next_step_at = next_step;
        self.transition(next, event, now, &detail).await?;
        Ok(())
    }

    /// The customer's refund invoice expired before the refund went out: the choice is undone
    /// and they are asked again (with a fresh invoice).
    async fn ask_again_for_refund_invoice(
        &self,
        mut next: OrderRecord,
        now: i64,
    ) -> Result<(), OrderError> {
        tracing::warn!(order.id = %next.id, "the refund invoice expired before the refund; asking again");
        next.emergency_choice = None;
        next.refund_address = None;
        next.next_step_at = None;
        next.updated_at = now;
        self.write(next, None, &OrderEffects::default()).await?;
        Ok(())
    }

    /// Brings an order an upstream provider fills up to what the provider says of it, replaying
    /// any steps missed between two looks, passes on a choice it has not heard of yet, and
    /// schedules the next look.
    pub(super) async fn follow_upstream(
        &self,
        order: OrderRecord,
        now: i64,
    ) -> Result<(), OrderError> {
        let Some(reference) = upstream_ref(&order) else {
            return Ok(());
        };
        // Each look moves the next one on and releases the lease; only news changes `updated_at`.
        let mut next = order.clone();
        let state = match self.provider.order_state(&reference).await {
            Ok(state) => state,
            Err(error) => {
                // Look again later: the provider being away changes nothing about the order.
                next.next_step_at = self.next_look(&order, now);
                self.write(next, None, &OrderEffects::default()).await?;
                return Err(QuoteError::from(error).into());
            }
        };
        // A choice the upstream has not heard of is passed on again at each look (an operator's
        // refund of a failed order too).
        if order.emergency_choice.is_some()
            && matches!(state.status, OrderStatus::Emergency | OrderStatus::Failed)
            && state.choice.is_none()
        {
            match self.pass_choice_on(&order).await {
                Ok(()) => {}
                // The upstream will not take it (its state moved on, the address is refused):
                // the choice is the customer's to make again, not stuck half-made.
                Err(ProviderError::Rejected(reason)) => {
                    tracing::warn!(order.id = %order.id, reason = %reason, "the upstream refused the emergency choice; asking the customer again");
                    next.emergency_choice = None;
                    next.updated_at = now;
                }
                Err(error) => {
                    tracing::warn!(order.id = %order.id, error = %error, "emergency choice not passed on yet")
                }
            }
        }
        apply_upstream_amounts(&mut next, &state, now);
        next.next_step_at = self.next_look(&next, now);
        // The upstream's status as it says it: a refund is told by its refund transaction.
        let target = state.status;
        // A deposit on an expired order is always a late one, whatever else the upstream notes.
        let problem = if order.status == OrderStatus::Expired {
            EmergencyReason::Expired
        } else {
            state.problem.unwrap_or(EmergencyReason::Less)
        };
        let events = if order.status == OrderStatus::Emergency
            && order.emergency_choice.is_some()
            && target == OrderStatus::Failed
        {
            // The upstream is carrying the customer's choice out (it offers it no more): the
            // order waits for the outcome, not a failure that would rewrite the choice.
            Vec::new()
        } else {
            events_toward(order.status, target, problem)
                // Past the point where a customer can be asked: an operator refunds a failure.
                .or_else(|| {
                    (target == OrderStatus::Emergency)
                        .then(|| events_toward(order.status, OrderStatus::Failed, problem))
                        .flatten()
                })
                .unwrap_or_else(|| {
                    tracing::warn!(order.id = %order.id, from = order.status.as_str(), to = target.as_str(),
                        "the provider's status cannot be reached from the order's; following on");
                    Vec::new()
                })
        };
        if events.is_empty() {
            self.write(next, None, &OrderEffects::default()).await?;
            return Ok(());
        }
        let detail = format!("{} at {}", target.partner_status(), order.provider);
        for event in events {
            next = self.transition(next, event, now, &detail).await?;
        }
        Ok(())
    }

    /// When to look at an upstream order again: soon while it moves, less and less often the
    /// longer nothing happens to it, and never once it is final or forgotten.
    pub(super) fn next_look(&self, order: &OrderRecord, now: i64) -> Option<i64> {
        look_again(
            order.is_final(now),
            now - order.updated_at,
            self.settings.provider_poll_seconds,
            now,
        )
    }

    /// Closes a sandbox order's deposit window now (an operator's simulation of its deadline).
    pub async fn expire_now(
        &self,
        id: &str,
        now: i64,
        audit: AuditEntry,
    ) -> Result<OrderRecord, OrderError> {
        self.close_deposit_window(id, now, audit, "no deposit in time")
            .await
    }

    /// An operator cancels an order still waiting for its deposit. A deposit that comes
    /// later still arrives as a late one (EMERGENCY), so nothing sent is lost. An order an
    /// upstream fills is cancelled there, not here.
    pub async fn cancel(
        &self,
        id: &str,
        now: i64,
        audit: AuditEntry,
    ) -> Result<OrderRecord, OrderError> {
        let order = self.find(id).await?;
        if order.status != OrderStatus::New {
            return Err(OrderError::Conflict(
                "Only an order waiting for its deposit can be cancelled".into(),
            ));
        }
        self.close_deposit_window(id, now, audit, "cancelled by an operator")
            .await
    }

    async fn close_deposit_window(
        &self,
        id: &str,
        now: i64,
        audit: AuditEntry,
        detail: &str,
    ) -> Result<OrderRecord, OrderError> {
        let mut order = self.find(id).await?;
        let audit = AuditEntry {
            before: Some(super::audit_view(&order)),
            ..audit
        };
        if order.provider_order_id.is_some() {
            return Err(OrderError::Conflict(
                "An upstream order expires at the upstream".into(),
            ));
        }
        order.next_step_at = None;
        self.transition_audited(order, OrderEvent::DeadlinePassed, now, detail, Some(audit))
            .await
    }

    /// Expires NEW orders past their deadline. Returns how many expired.
    pub async fn expire_overdue(&self, now: i64) -> Result<usize, OrderError> {
        let overdue = self.store.overdue_new_orders(now, 100).await?;
        let mut expired = 0;
        for order in overdue {
            let mut next = order;
            next.next_step_at = None;
            // Another replica may expire it first: then this one's write is refused.
            if self
                .transition(next, OrderEvent::DeadlinePassed, now, "no deposit in time")
                .await
                .is_ok()
            {
                expired += 1;
            }
        }
        Ok(expired)
    }
}

/// When to look again at an upstream order nothing has happened to for `idle` seconds: every
/// `poll` seconds while it moves, then a tenth of its idle time (at most an hour), never once it
/// is final or has been quiet for 30 days.
fn look_again(is_final: bool, idle: i64, poll: i64, now: i64) -> Option<i64> {
    let idle = idle.max(0);
    if is_final || idle >= GIVE_UP_LOOKING_AFTER_SECONDS {
        return None;
    }
    Some(now + (idle / 10).clamp(poll, MAX_LOOK_INTERVAL_SECONDS.max(poll)))
}

/// How the order is known at the upstream that fills it.
pub(super) fn upstream_ref(order: &OrderRecord) -> Option<UpstreamRef<'_>> {
    Some(UpstreamRef {
        provider: &order.provider,
        id: order.provider_order_id.as_deref()?,
        token: order.provider_order_token.as_deref()?,
    })
}

/// Takes the amounts the upstream reports; news moves `updated_at`.
fn apply_upstream_amounts(next: &mut OrderRecord, state: &UpstreamState, now: i64) {
    let before = (
        next.received_amount,
        next.to_amount,
        next.payout_amount,
        next.transactions.clone(),
    );
    let txs = &state.transactions;
    for (ours, theirs) in [
        (&mut next.transactions.deposit, &txs.deposit),
        (&mut next.transactions.payout, &txs.payout),
        (&mut next.transactions.refund, &txs.refund),
    ] {
        if theirs.is_some() {
            ours.clone_from(theirs);
        }
    }
    if let Some(received) = state.received {
        next.received_amount = Some(received);
    }
    if let Some(to_amount) = state.to_amount {
        next.to_amount = to_amount;
    }
    if let Some(paid_out) = state.paid_out {
        next.payout_amount = Some(paid_out);
    }
    let after = (
        next.received_amount,
        next.to_amount,
        next.payout_amount,
        next.transactions.clone(),
    );
    if before != after {
        next.updated_at = now;
    }
}

/// How soon an order's next step may be due for an operator's "look again now" to be refused.
const RETRY_GAP_SECONDS: i64 = 30;

/// Whether an operator may make the order's next step due now: it moves on its own
/// (confirming, exchanging, sending, or a decision made in EMERGENCY) and is not over.
pub fn can_retry(order: &OrderRecord, now: i64) -> bool {
    let moving = matches!(
        order.status,
        OrderStatus::Confirming | OrderStatus::Exchange | OrderStatus::Sending
    );
    let decided = matches!(order.status, OrderStatus::Emergency | OrderStatus::Failed)
        && order.emergency_choice.is_some();
    (moving || decided) && !order.is_final(now)
}

/// Whether an operator may refund the order: one waiting for a decision, or one that failed
/// after its deposit arrived (the coins are held; the customer cannot choose on a failure).
pub fn operator_may_refund(order: &OrderRecord) -> bool {
    let paid_out = order.payout_amount.is_some() || order.transactions.payout.is_some();
    order.emergency_choice.is_none()
        && match order.status {
            OrderStatus::Emergency => true,
            OrderStatus::Failed => order.received_amount.is_some() && !paid_out,
            _ => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_upstream_order_is_looked_at_less_often_the_quieter_it_is_and_then_no_more() {
        let now = 1_000_000;
        assert_eq!(
            look_again(false, 0, 10, now),
            Some(now + 10),
            "while it moves"
        );
        assert_eq!(look_again(false, 600, 10, now), Some(now + 60));
        assert_eq!(
            look_again(false, 86_400, 10, now),
            Some(now + 3600),
            "at most an hour"
        );
        assert_eq!(
            look_again(false, 30 * 86_400, 10, now),
            None,
            "forgotten after 30 days"
        );
        assert_eq!(look_again(true, 0, 10, now), None, "final");
        assert_eq!(
            look_again(false, -5, 10, now),
            Some(now + 10),
            "a clock step back"
        );
    }
}
