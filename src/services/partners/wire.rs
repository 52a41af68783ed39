//! The partner API's order object and statuses (../shared/partner-api.md, "The Order object"),
//! shared by `/api/v2/order` and the webhooks.

use serde_json::{Value, json};

use crate::domain::currency::{Catalogue, Currency};
use crate::domain::money::to_wire;
use crate::domain::order::{EmergencyReason, OrderStatus};
use crate::domain::transaction::Transaction;
use crate::store::{OrderEventRecord, OrderRecord};

/// Ferry's emergency reasons in the partner API's words (a fixed rate that moved after its
/// window counts as the window having expired).
fn emergency_status(reason: EmergencyReason) -> &'static str {
    match reason {
        EmergencyReason::Less => "LESS",
        EmergencyReason::More => "MORE",
        EmergencyReason::Limit => "LIMIT",
        EmergencyReason::Expired | EmergencyReason::Rate => "EXPIRED",
    }
}

/// When the order first reached `status`, from its history.
fn reached(events: &[OrderEventRecord], statuses: &[&str]) -> Option<i64> {
    events
        .iter()
        .find(|e| statuses.contains(&e.status.as_str()))
        .map(|e| e.created_at)
}

/// A `Tx` object: the recorded transaction, or (for an order from before transactions were
/// recorded) what is known of it without an id.
fn tx(
    recorded: Option<&Transaction>,
    code: &str,
    amount: Option<rust_decimal::Decimal>,
    at: Option<i64>,
    confirmations: Option<u32>,
) -> Value {
    match recorded {
        Some(t) => json!({
            "id": t.id,
            "amount": to_wire(t.amount),
            "fee": t.fee.map(to_wire),
            // The currency the fee was paid in: Ferry's fees are in the coin moved.
            "ccyfee": t.fee.map(|_| code),
            "timeReg": t.at,
            "timeBlock": t.confirmations.filter(|c| *c > 0).map(|_| t.at),
            "confirmations": t.confirmations,
        }),
        None => json!({
            "id": null,
            "amount": amount.map(to_wire),
            "fee": null,
            "ccyfee": null,
            "timeReg": at,
            "timeBlock": at,
            "confirmations": confirmations,
        }),
    }
}

fn names(currency: Option<&Currency>, code: &str) -> Value {
    json!({
        "code": code,
        "coin": currency.map(|c| c.coin.as_str()),
        "network": currency.map(|c| c.network.as_str()),
        "name": currency.map(|c| c.name.as_str()),
        "alias": code.to_ascii_lowercase(),
        "tagName": currency.and_then(|c| c.tag.as_deref()),
    })
}

fn merge(mut base: Value, extra: Value) -> Value {
    if let (Some(base), Value::Object(extra)) = (base.as_object_mut(), extra) {
        base.extend(extra);
    }
    base
}

/// The order object of the partner API.
pub fn order_object(
    order: &OrderRecord,
    events: &[OrderEventRecord],
    catalogue: &Catalogue,
    token: &str,
    now: i64,
) -> Value {
    let status = order.status;
    let from = catalogue.get(&order.from_code);
    let to = catalogue.get(&order.to_code);
    let deposit_seen =
        reached(events, &["CONFIRMING", "EMERGENCY"]).filter(|_| order.received_amount.is_some());
    let confirmed = reached(events, &["EXCHANGE"]);
    let sent = reached(events, &["COMPLETED"]);
    let refunded = status == OrderStatus::Refunded;
    let confirmations = from.map(|c| c.confirmations);
    let left = if status == OrderStatus::New {
        (order.expires_at - now).max(0)
    } else {
        0
    };
    let txs = &order.transactions;
    let refund = txs.refund.as_ref();
    let back = match &order.refund_address {
        Some(address) => merge(
            names(from, &order.from_code),
            json!({
                "amount": refund
                    .map(|t| t.amount)
                    .or(refunded.then_some(order.received_amount).flatten())
                    .map(to_wire),
                "address": address,
                "tag": order.refund_tag,
                "tx": tx(
                    refund,
                    &order.from_code,
                    refunded.then_some(order.received_amount).flatten(),
                    refunded.then_some(order.finished_at).flatten(),
                    None,
                ),
            }),
        ),
        None => json!({
            "code": null, "coin": null, "network": null, "name": null, "alias": null,
            "amount": null, "address": null, "tag": null, "tagName": null,
            "tx": tx(None, "", None, None, None),
        }),
    };
    json!({
        "id": order.id,
        "type": order.rate_type.as_str(),
        "email": order.notify_email.clone().unwrap_or_default(),
        "status": status.partner_status(),
        "token": token,
        "time": {
            "reg": order.created_at,
            "start": deposit_seen,
            "finish": order.finished_at,
            "update": order.updated_at,
            "expiration": order.expires_at,
            "left": left,
        },
        // As FixedFloat answers: `amount` is what the order asks for, what arrived is `tx.amount`.
        "from": merge(names(from, &order.from_code), json!({
            "amount": to_wire(order.from_amount),
            "usd": format!("{:.2}", order.from_usd),
            "address": order.deposit_address,
            "addressAlt": null,
            "tag": order.deposit_tag,
            "reqConfirmations": confirmations,
            "maxConfirmations": confirmations,
            "tx": tx(
                txs.deposit.as_ref(),
                &order.from_code,
                order.received_amount,
                deposit_seen,
                confirmed.and(confirmations).or(deposit_seen.map(|_| 0)),
            ),
        })),
        "to": merge(names(to, &order.to_code), json!({
            "amount": to_wire(order.payout_amount.unwrap_or(order.to_amount)),
            "usd": format!("{:.2}", order.to_usd),
            "address": order.to_address,
            "tag": order.to_tag,
            "tx": tx(
                txs.payout.as_ref(),
                &order.to_code,
                sent.and(order.payout_amount),
                sent,
                sent.map(|_| 1),
            ),
        })),
        "back": back,
        "emergency": {
            "status": order.emergency_reason.map(emergency_status).into_iter().collect::<Vec<_>>(),
            "choice": order.emergency_choice.map_or("NONE", |c| c.as_str()),
            "repeat": "0",
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emergency_reasons_use_the_partner_vocabulary() {
        assert_eq!(emergency_status(EmergencyReason::Less), "LESS");
        assert_eq!(emergency_status(EmergencyReason::More), "MORE");
        assert_eq!(emergency_status(EmergencyReason::Limit), "LIMIT");
        assert_eq!(emergency_status(EmergencyReason::Expired), "EXPIRED");
        assert_eq!(emergency_status(EmergencyReason::Rate), "EXPIRED");
    }
}
