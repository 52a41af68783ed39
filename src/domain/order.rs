//! The order lifecycle (spec/exchange.md §4, §9): NEW → CONFIRMING → EXCHANGE → SENDING →
//! COMPLETED, with EXPIRED, EMERGENCY, REFUNDED and FAILED. A status changes only through
//! [`OrderStatus::apply`], which refuses every transition not listed here.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum OrderStatus {
    /// Awaiting the deposit.
    #[default]
    New,
    /// Deposit seen, waiting for confirmations.
    Confirming,
    /// Confirmed, exchanging.
    Exchange,
    /// Sending the payout.
    Sending,
    Completed,
    /// No deposit in time.
    Expired,
    /// The customer must choose: continue or refund.
    Emergency,
    Refunded,
    Failed,
}

/// How long an expired order still takes a late deposit, which reopens it as EMERGENCY (the
/// customer then chooses a refund or the exchange). After it, EXPIRED is final.
pub const LATE_DEPOSIT_GRACE_SECONDS: i64 = 24 * 3600;

/// Why an order needs the customer's choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum EmergencyReason {
    /// The deposit arrived after the order expired.
    Expired,
    /// Less than ordered.
    Less,
    /// More than ordered.
    More,
    /// Outside the pair's limits.
    Limit,
    /// A fixed-rate order whose market moved more than the tolerance.
    Rate,
}

impl EmergencyReason {
    pub const ALL: [EmergencyReason; 5] = [
        EmergencyReason::Expired,
        EmergencyReason::Less,
        EmergencyReason::More,
        EmergencyReason::Limit,
        EmergencyReason::Rate,
    ];

    /// As the API and the store write it.
    pub fn as_str(self) -> &'static str {
        match self {
            EmergencyReason::Expired => "EXPIRED",
            EmergencyReason::Less => "LESS",
            EmergencyReason::More => "MORE",
            EmergencyReason::Limit => "LIMIT",
            EmergencyReason::Rate => "RATE",
        }
    }

    pub fn parse(raw: &str) -> Option<EmergencyReason> {
        Self::ALL.into_iter().find(|r| r.as_str() == raw)
    }
}

/// What happened to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderEvent {
    DepositDetected,
    DepositConfirmed,
    Exchanged,
    PayoutSent,
    /// The deposit window closed with nothing received.
    DeadlinePassed,
    /// Something the customer must decide on.
    Problem(EmergencyReason),
    /// The customer chose to continue at the current rate.
    ContinueChosen,
    /// The refund went out.
    Refunded,
    /// The exchange or payout failed for good.
    Failed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("an order in {from:?} cannot take {event:?}")]
pub struct IllegalTransition {
    pub from: OrderStatus,
    pub event: OrderEvent,
}

impl OrderStatus {
    /// The next status after `event`, or why there is none.
    pub fn apply(self, event: OrderEvent) -> Result<OrderStatus, IllegalTransition> {
        use OrderEvent as E;
        use OrderStatus as S;
        let next = match (self, event) {
            (S::New, E::DepositDetected) => S::Confirming,
            (S::New, E::DeadlinePassed) => S::Expired,
            (S::New | S::Confirming, E::Problem(_)) => S::Emergency,
            (S::Expired, E::Problem(EmergencyReason::Expired)) => S::Emergency,
            (S::Confirming, E::DepositConfirmed) => S::Exchange,
            (S::Exchange, E::Exchanged) => S::Sending,
            (S::Sending, E::PayoutSent) => S::Completed,
            (S::Emergency, E::ContinueChosen) => S::Exchange,
            (S::Emergency | S::Failed, E::Refunded) => S::Refunded,
            (S::Exchange | S::Sending, E::Failed) => S::Failed,
            _ => return Err(IllegalTransition { from: self, event }),
        };
        Ok(next)
    }

    /// The order has ended for now and has a finish time. Two ends can still reopen: a late
    /// deposit turns EXPIRED into EMERGENCY (within [`LATE_DEPOSIT_GRACE_SECONDS`]), and an
    /// operator may refund a FAILED order.
    pub fn has_ended(self) -> bool {
        matches!(
            self,
            OrderStatus::Completed
                | OrderStatus::Refunded
                | OrderStatus::Expired
                | OrderStatus::Failed
        )
    }

    /// Nothing can change the order any more: the one policy every part of Ferry asks (event
    /// streams, the order worker, the ledger). COMPLETED and REFUNDED are final at once;
    /// EXPIRED once its grace window for late deposits has passed; everything else is not.
    pub fn is_final(self, finished_at: Option<i64>, now: i64) -> bool {
        match self {
            OrderStatus::Completed | OrderStatus::Refunded => true,
            OrderStatus::Expired => {
                finished_at.is_some_and(|at| now >= at + LATE_DEPOSIT_GRACE_SECONDS)
            }
            _ => false,
        }
    }

    /// When an order in this status, entered at `entered_at`, becomes final with no further
    /// change: only an expired order, once its late-deposit window is over.
    pub fn ends_by_time_at(self, entered_at: i64) -> Option<i64> {
        (self == OrderStatus::Expired).then_some(entered_at + LATE_DEPOSIT_GRACE_SECONDS)
    }

    /// The progress bar of spec/exchange.md §4, in percent.
    pub fn progress(self) -> u8 {
        match self {
            OrderStatus::Confirming => 40,
            OrderStatus::Exchange => 60,
            OrderStatus::Sending => 80,
            OrderStatus::Completed => 100,
            _ => 20,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::New => "NEW",
            OrderStatus::Confirming => "CONFIRMING",
            OrderStatus::Exchange => "EXCHANGE",
            OrderStatus::Sending => "SENDING",
            OrderStatus::Completed => "COMPLETED",
            OrderStatus::Expired => "EXPIRED",
            OrderStatus::Emergency => "EMERGENCY",
            OrderStatus::Refunded => "REFUNDED",
            OrderStatus::Failed => "FAILED",
        }
    }

    pub fn parse(raw: &str) -> Option<OrderStatus> {
        ALL_STATUSES.into_iter().find(|s| s.as_str() == raw)
    }

    /// The partner API's name for this status (`../shared/partner-api.md`).
    pub fn partner_status(self) -> &'static str {
        match self {
            OrderStatus::New => "NEW",
            OrderStatus::Confirming => "PENDING",
            OrderStatus::Exchange => "EXCHANGE",
            OrderStatus::Sending => "WITHDRAW",
            OrderStatus::Completed | OrderStatus::Refunded => "DONE",
            OrderStatus::Expired => "EXPIRED",
            OrderStatus::Emergency | OrderStatus::Failed => "EMERGENCY",
        }
    }
}

/// The customer's decision on an order in EMERGENCY.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmergencyChoice {
    Exchange,
    Refund,
}

impl EmergencyChoice {
    pub fn as_str(self) -> &'static str {
        match self {
            EmergencyChoice::Exchange => "EXCHANGE",
            EmergencyChoice::Refund => "REFUND",
        }
    }

    /// `EXCHANGE` or `REFUND`, in any case.
    pub fn parse(raw: &str) -> Option<EmergencyChoice> {
        [EmergencyChoice::Exchange, EmergencyChoice::Refund]
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(raw.trim()))
    }
}

/// The shortest run of events that takes an order from `from` to `to`, each one a legal
/// transition; `problem` is the reason of any EMERGENCY on the way. An order that follows a
/// provider's status may learn of several steps at once: this replays them in order, so its
/// history, mails and partner notifications are the same as if it had seen each one. `None`
/// when `to` cannot be reached from `from`.
pub fn events_toward(
    from: OrderStatus,
    to: OrderStatus,
    problem: EmergencyReason,
) -> Option<Vec<OrderEvent>> {
    use OrderEvent as E;
    let candidates = [
        E::DepositDetected,
        E::DepositConfirmed,
        E::Exchanged,
        E::PayoutSent,
        E::DeadlinePassed,
        E::Problem(problem),
        E::ContinueChosen,
        E::Refunded,
        E::Failed,
    ];
    let mut paths = std::collections::VecDeque::from([(from, Vec::new())]);
    let mut seen = vec![from];
    while let Some((status, path)) = paths.pop_front() {
        if status == to {
            return Some(path);
        }
        for event in candidates {
            if let Ok(next) = status.apply(event)
                && !seen.contains(&next)
            {
                seen.push(next);
                let mut longer = path.clone();
                longer.push(event);
                paths.push_back((next, longer));
            }
        }
    }
    None
}

pub const ALL_STATUSES: [OrderStatus; 9] = [
    OrderStatus::New,
    OrderStatus::Confirming,
    OrderStatus::Exchange,
    OrderStatus::Sending,
    OrderStatus::Completed,
    OrderStatus::Expired,
    OrderStatus::Emergency,
    OrderStatus::Refunded,
    OrderStatus::Failed,
];

#[cfg(test)]
mod tests {
    use super::EmergencyReason as R;
    use super::OrderEvent as E;
    use super::OrderStatus as S;
    use super::*;

    const EVENTS: [OrderEvent; 13] = [
        E::DepositDetected,
        E::DepositConfirmed,
        E::Exchanged,
        E::PayoutSent,
        E::DeadlinePassed,
        E::Problem(R::Expired),
        E::Problem(R::Less),
        E::Problem(R::More),
        E::Problem(R::Limit),
        E::Problem(R::Rate),
        E::ContinueChosen,
        E::Refunded,
        E::Failed,
    ];

    /// Every legal transition, and nothing else.
    fn legal(from: S, event: E) -> Option<S> {
        Some(match (from, event) {
            (S::New, E::DepositDetected) => S::Confirming,
            (S::New, E::DeadlinePassed) => S::Expired,
            (S::New, E::Problem(_)) => S::Emergency,
            (S::Confirming, E::Problem(_)) => S::Emergency,
            (S::Expired, E::Problem(R::Expired)) => S::Emergency,
            (S::Confirming, E::DepositConfirmed) => S::Exchange,
            (S::Exchange, E::Exchanged) => S::Sending,
            (S::Sending, E::PayoutSent) => S::Completed,
            (S::Emergency, E::ContinueChosen) => S::Exchange,
            (S::Emergency, E::Refunded) => S::Refunded,
            (S::Failed, E::Refunded) => S::Refunded,
            (S::Exchange, E::Failed) => S::Failed,
            (S::Sending, E::Failed) => S::Failed,
            _ => return None,
        })
    }

    #[test]
    fn events_toward_replay_the_steps_an_order_missed() {
        assert_eq!(events_toward(S::New, S::New, R::Less), Some(vec![]));
        assert_eq!(
            events_toward(S::New, S::Completed, R::Less),
            Some(vec![
                E::DepositDetected,
                E::DepositConfirmed,
                E::Exchanged,
                E::PayoutSent
            ])
        );
        assert_eq!(
            events_toward(S::Confirming, S::Refunded, R::Less),
            Some(vec![E::Problem(R::Less), E::Refunded])
        );
        assert_eq!(
            events_toward(S::Expired, S::Emergency, R::Expired),
            Some(vec![E::Problem(R::Expired)])
        );
        assert_eq!(
            events_toward(S::New, S::Failed, R::Less),
            Some(vec![E::DepositDetected, E::DepositConfirmed, E::Failed])
        );
        assert_eq!(events_toward(S::Completed, S::New, R::Less), None);
        assert_eq!(events_toward(S::Expired, S::Emergency, R::Less), None);
        for from in ALL_STATUSES {
            for to in ALL_STATUSES {
                if let Some(path) = events_toward(from, to, R::More) {
                    let end = path.iter().try_fold(from, |s, e| s.apply(*e));
                    assert_eq!(end, Ok(to), "{from:?} → {to:?} by {path:?}");
                }
            }
        }
    }

    #[test]
    fn every_pair_of_status_and_event_is_legal_or_refused_as_listed() {
        for from in ALL_STATUSES {
            for event in EVENTS {
                match legal(from, event) {
                    Some(to) => assert_eq!(from.apply(event), Ok(to), "{from:?} + {event:?}"),
                    None => assert_eq!(
                        from.apply(event),
                        Err(IllegalTransition { from, event }),
                        "{from:?} + {event:?}"
                    ),
                }
            }
        }
    }

    #[test]
    fn the_happy_path_runs_new_to_completed() {
        let mut status = S::New;
        for event in [
            E::DepositDetected,
            E::DepositConfirmed,
            E::Exchanged,
            E::PayoutSent,
        ] {
            status = status.apply(event).unwrap();
        }
        assert_eq!(status, S::Completed);
        assert!(status.is_final(Some(0), 0));
    }

    #[test]
    fn completed_and_refunded_orders_take_no_event() {
        for from in [S::Completed, S::Refunded] {
            for event in EVENTS {
                assert!(from.apply(event).is_err(), "{from:?} + {event:?}");
            }
        }
    }

    #[test]
    fn expired_is_final_only_after_the_late_deposit_grace_window() {
        let ended = 1_000;
        assert!(!S::Expired.is_final(Some(ended), ended));
        assert!(!S::Expired.is_final(Some(ended), ended + LATE_DEPOSIT_GRACE_SECONDS - 1));
        assert!(S::Expired.is_final(Some(ended), ended + LATE_DEPOSIT_GRACE_SECONDS));
        assert_eq!(
            S::Expired.ends_by_time_at(ended),
            Some(ended + LATE_DEPOSIT_GRACE_SECONDS)
        );
        assert_eq!(S::New.ends_by_time_at(ended), None);
        assert_eq!(
            S::Expired.apply(E::Problem(R::Expired)),
            Ok(S::Emergency),
            "a late deposit reopens it"
        );
        for status in [S::Completed, S::Refunded] {
            assert!(status.is_final(Some(ended), ended));
            assert!(status.has_ended());
        }
        for status in [
            S::New,
            S::Confirming,
            S::Exchange,
            S::Sending,
            S::Emergency,
            S::Failed,
        ] {
            assert!(!status.is_final(Some(ended), i64::MAX / 2), "{status:?}");
        }
        assert!(S::Failed.has_ended() && S::Expired.has_ended());
        assert!(!S::Emergency.has_ended());
    }

    #[test]
    fn a_status_that_is_final_takes_no_event() {
        for status in ALL_STATUSES {
            if status.is_final(Some(0), LATE_DEPOSIT_GRACE_SECONDS) && status != S::Expired {
                for event in EVENTS {
                    assert!(status.apply(event).is_err(), "{status:?} + {event:?}");
                }
            }
        }
    }

    #[test]
    fn reasons_and_choices_round_trip() {
        for reason in R::ALL {
            assert_eq!(R::parse(reason.as_str()), Some(reason));
        }
        assert_eq!(R::parse("less"), None);
        assert_eq!(
            EmergencyChoice::parse(" refund "),
            Some(EmergencyChoice::Refund)
        );
        assert_eq!(
            EmergencyChoice::parse("EXCHANGE"),
            Some(EmergencyChoice::Exchange)
        );
        assert_eq!(EmergencyChoice::parse("both"), None);
    }

    #[test]
    fn progress_follows_the_spec_table() {
        let progress: Vec<u8> = ALL_STATUSES.iter().map(|s| s.progress()).collect();
        assert_eq!(progress, vec![20, 40, 60, 80, 100, 20, 20, 20, 20]);
    }

    #[test]
    fn statuses_round_trip_and_map_to_partner_names() {
        for status in ALL_STATUSES {
            assert_eq!(S::parse(status.as_str()), Some(status));
        }
        let partner: Vec<&str> = ALL_STATUSES.iter().map(|s| s.partner_status()).collect();
        assert_eq!(
            partner,
            [
                "NEW",
                "PENDING",
                "EXCHANGE",
                "WITHDRAW",
                "DONE",
                "EXPIRED",
                "EMERGENCY",
                "DONE",
                "EMERGENCY"
            ]
        );
    }
}
