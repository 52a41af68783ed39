//! The back office's currencies (issue 22): what customers get of each currency now, and the
//! operator's say on it: send/receive switches, maintenance with a message customers see, and
//! the least and most a customer may send on top of the provider's limits. A change reaches
//! every replica within a second (`workers::refresh_currency_switches`).

use std::str::FromStr;

use axum::Json;
use axum::extract::{Path, State};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{AdminCall, Operator, Support};
use crate::domain::currency::Currency;
use crate::http::AppState;
use crate::http::error::ApiError;
use crate::http::extract::ApiJson;
use crate::store::CurrencyOverride;

/// Longest maintenance message: one line under the amount field.
const MESSAGE_LIMIT: usize = 200;
/// Largest minimum or maximum (10^15): above any sensible order of any coin, and small enough
/// that a limit times any rate stays far inside what a decimal holds.
const LIMIT_CAP: Decimal = Decimal::from_parts(2_764_472_320, 232_830, 0, false, 0);

fn override_view(o: Option<&CurrencyOverride>) -> Value {
    let amount = |a: Option<Decimal>| a.map(|d| d.normalize().to_string());
    json!({
        "send": o.and_then(|o| o.send_enabled),
        "recv": o.and_then(|o| o.recv_enabled),
        "maintenance": o.and_then(|o| o.maintenance.as_deref()),
        "min": amount(o.and_then(|o| o.min_amount)),
        "max": amount(o.and_then(|o| o.max_amount)),
        "updated_at": o.map(|o| o.updated_at),
    })
}

fn currency_view(state: &AppState, c: &Currency, o: Option<&CurrencyOverride>) -> Value {
    let now = state.switches.state(state.provider.as_ref(), c);
    let provider = state.provider.availability(c);
    json!({
        "code": c.code, "coin": c.coin, "name": c.name,
        "network": c.network, "network_name": c.network_name,
        "send": now.send, "recv": now.recv,
        "provider": {
            "deposit_maintenance": provider.deposit_maintenance,
            "payout_maintenance": provider.payout_maintenance,
        },
        "override": override_view(o),
    })
}

/// Every currency of the catalogue with what customers get now and the operator's override.
pub(super) async fn list_currencies(
    State(state): State<AppState>,
    _: AdminCall<Support>,
) -> Result<Json<Value>, ApiError> {
    // Read from the database, not this replica's copy: the page shows what was last saved.
    let overrides = state.store.currency_overrides().await?;
    let rows = state
        .catalogue
        .all()
        .iter()
        .map(|c| currency_view(&state, c, overrides.iter().find(|o| o.code == c.code)))
        .collect();
    Ok(Json(Value::Array(rows)))
}

/// The overrides alone (`ferry admin currency list` and scripts).
pub(super) async fn list_currency_overrides(
    State(state): State<AppState>,
    _: AdminCall<Support>,
) -> Result<Json<Value>, ApiError> {
    let overrides = state.store.currency_overrides().await?;
    Ok(Json(Value::Array(
        overrides
            .iter()
            .map(|o| {
                let mut view = override_view(Some(o));
                view["code"] = json!(o.code);
                view
            })
            .collect(),
    )))
}

/// The whole override: a field left out is `null` (the provider's flag, no maintenance, no
/// limit of the operator's).
#[derive(Deserialize, Serialize)]
pub(super) struct OverrideRequest {
    #[serde(default)]
    send: Option<bool>,
    #[serde(default)]
    recv: Option<bool>,
    #[serde(default)]
    maintenance: Option<String>,
    #[serde(default)]
    min: Option<String>,
    #[serde(default)]
    max: Option<String>,
    #[serde(default)]
    reason: Option<String>,
}

fn limit(raw: Option<&str>, name: &str) -> Result<Option<Decimal>, ApiError> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(None);
    };
    // Plain decimals only (no `_`, no exponent), within what any coin's amounts could be: the
    // limits are multiplied by rates, and no sum of them may overflow.
    let plain = raw.chars().all(|c| c.is_ascii_digit() || c == '.');
    match Decimal::from_str(raw) {
        Ok(amount) if plain && amount > Decimal::ZERO && amount <= LIMIT_CAP => {
            Ok(Some(amount.normalize()))
        }
        _ => Err(ApiError::BadRequest(format!(
            "{name} must be a positive amount of at most {LIMIT_CAP}"
        ))),
    }
}

fn maintenance_message(raw: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(message) = raw.map(str::trim).filter(|m| !m.is_empty()) else {
        return Ok(None);
    };
    if message.chars().count() > MESSAGE_LIMIT {
        return Err(ApiError::BadRequest(format!(
            "Keep the maintenance message to {MESSAGE_LIMIT} characters"
        )));
    }
    if message.chars().any(|c| c.is_control() || invisible(c)) {
        return Err(ApiError::BadRequest(
            "The maintenance message is one line, without control characters".into(),
        ));
    }
    Ok(Some(message.to_owned()))
}

/// Characters that break a line or change how text around them reads, unseen: line and
/// paragraph separators, zero-width characters, bidirectional overrides and isolates.
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

fn checked_override(
    currency: &Currency,
    body: &OverrideRequest,
) -> Result<CurrencyOverride, ApiError> {
    let min_amount = limit(body.min.as_deref(), "min")?;
    let max_amount = limit(body.max.as_deref(), "max")?;
    if let (Some(min), Some(max)) = (min_amount, max_amount)
        && min > max
    {
        return Err(ApiError::BadRequest("min must not be above max".into()));
    }
    Ok(CurrencyOverride {
        code: currency.code.clone(),
        send_enabled: body.send,
        recv_enabled: body.recv,
        maintenance: maintenance_message(body.maintenance.as_deref())?,
        min_amount,
        max_amount,
        updated_at: crate::now_unix(),
    })
}

pub(super) async fn set_currency_override(
    State(state): State<AppState>,
    call: AdminCall<Operator>,
    Path(code): Path<String>,
    ApiJson(body): ApiJson<OverrideRequest>,
) -> Result<Json<Value>, ApiError> {
    let currency = state.catalogue.get(&code).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "Unknown currency code {:?}",
            code.trim().to_ascii_uppercase()
        ))
    })?;
    let value = checked_override(currency, &body)?;
    let audit = call.audit_maybe_because(
        "currency.set",
        ("currency", &currency.code),
        &body,
        body.reason.as_deref(),
    )?;
    call.once(&state, &audit, async {
        let audit_id = state.store.set_currency_override(&value, &audit).await?;
        state.switches.reload(state.store.as_ref()).await?;
        let mut view = currency_view(&state, currency, Some(&value));
        view["audit_id"] = json!(audit_id);
        Ok(Json(view))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::{limit, maintenance_message};

    #[test]
    fn a_limit_is_a_plain_positive_amount_within_the_cap() {
        assert_eq!(
            limit(Some(" 0.0500 "), "min").unwrap().unwrap().to_string(),
            "0.05"
        );
        assert_eq!(limit(Some(""), "min").unwrap(), None);
        assert_eq!(limit(None, "min").unwrap(), None);
        assert!(limit(Some("1000000000000000"), "max").unwrap().is_some());
        for bad in [
            "0",
            "-1",
            "1e5",
            "1_000",
            "1000000000000001",
            "abc",
            "0x10",
            "+1",
        ] {
            assert!(limit(Some(bad), "max").is_err(), "{bad}");
        }
    }

    #[test]
    fn a_maintenance_message_is_one_visible_line() {
        assert_eq!(
            maintenance_message(Some("  Node upgrade  "))
                .unwrap()
                .as_deref(),
            Some("Node upgrade")
        );
        assert_eq!(maintenance_message(Some("   ")).unwrap(), None);
        for bad in [
            "a\nb",
            "a\u{2028}b",
            "a\u{202E}b",
            "a\u{200B}b",
            "a\u{FEFF}b",
        ] {
            assert!(maintenance_message(Some(bad)).is_err(), "{bad:?}");
        }
        assert!(maintenance_message(Some(&"x".repeat(201))).is_err());
        assert!(maintenance_message(Some(&"é".repeat(200))).is_ok());
    }
}
