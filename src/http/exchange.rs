//! The exchange API of spec/exchange.md §7: the currency list and quotes.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::AppState;
use super::error::ApiError;
use super::extract::{ApiJson, ClientAddress};
use crate::domain::fees::{Direction, RateType};
use crate::domain::money::{AmountInput, to_wire};
use crate::providers::ProviderError;
use crate::services::quotes::{Quote, QuoteError, QuoteRequest, QuoteService, QuoteSide};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/available-currencies", get(list_available_currencies))
        .route("/api/exchange-rate", post(get_exchange_rate))
        .route("/api/validate-address", post(validate_address))
}

/// A currency of `GET /api/available-currencies` (spec/exchange.md §3), `send`/`recv` from the
/// customer's side.
#[derive(Serialize)]
struct AvailableCurrency<'a> {
    code: &'a str,
    coin: &'a str,
    name: &'a str,
    network: &'a str,
    #[serde(rename = "networkName")]
    network_name: &'a str,
    recv: u8,
    send: u8,
    tag: Option<&'a str>,
    precision: u32,
    logo: &'a str,
    color: &'a str,
    priority: u8,
}

/// The serialised currency list, rebuilt only when the currency switches are reloaded: the
/// list is asked for on every page load and is the same for everyone.
#[derive(Clone, Default)]
pub struct CurrencyListCache(Arc<std::sync::Mutex<Option<(u64, axum::body::Bytes)>>>);

#[utoipa::path(
    get,
    path = "/api/available-currencies",
    tag = "exchange",
    summary = "Every currency with whether it can be sent and received now",
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn list_available_currencies(State(state): State<AppState>) -> Response {
    let generation = state.switches.generation();
    let cached = state
        .currency_list
        .0
        .lock()
        .expect("currency list cache lock")
        .as_ref()
        .filter(|(g, _)| *g == generation)
        .map(|(_, bytes)| bytes.clone());
    let body = match cached {
        Some(bytes) => bytes,
        None => {
            let bytes = axum::body::Bytes::from(
                serde_json::to_vec(&available_currencies(&state)).unwrap_or_default(),
            );
            *state
                .currency_list
                .0
                .lock()
                .expect("currency list cache lock") = Some((generation, bytes.clone()));
            bytes
        }
    };
    // Clients cache the list for 30 minutes (spec/exchange.md §9); intermediaries a minute.
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "public, max-age=60"),
        ],
        body,
    )
        .into_response()
}

fn available_currencies(state: &AppState) -> Vec<AvailableCurrency<'_>> {
    state
        .catalogue
        .all()
        .iter()
        .map(|c| {
            let availability = state.switches.state(state.provider.as_ref(), c);
            AvailableCurrency {
                code: &c.code,
                coin: &c.coin,
                name: &c.name,
                network: &c.network,
                network_name: &c.network_name,
                recv: u8::from(availability.recv),
                send: u8::from(availability.send),
                tag: c.tag.as_deref(),
                precision: c.precision,
                logo: &c.logo,
                color: &c.color,
                priority: c.priority,
            }
        })
        .collect()
}

#[derive(Deserialize, utoipa::ToSchema)]
struct ExchangeRateRequest {
    from_currency: String,
    to_currency: String,
    /// A decimal as a string (or a JSON number).
    #[schema(value_type = String, example = "0.1")]
    amount: AmountInput,
    #[serde(default = "default_direction")]
    #[schema(value_type = String, example = "from")]
    direction: Direction,
    #[serde(default = "default_rate_type", rename = "type")]
    #[schema(value_type = String, example = "float")]
    rate_type: RateType,
}

fn default_direction() -> Direction {
    Direction::From
}

fn default_rate_type() -> RateType {
    RateType::Float
}

#[derive(Serialize)]
pub(crate) struct WireSide {
    amount: String,
    code: &'static str,
    coin: &'static str,
    network: &'static str,
    min: String,
    max: String,
    precision: u32,
    rate: String,
    usd: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    btc: Option<String>,
    /// The operator's message while the currency is in maintenance.
    #[serde(skip_serializing_if = "Option::is_none")]
    maintenance: Option<String>,
}

impl WireSide {
    /// The side as the partner API's `Asset` (partner-api.md): its documented fields only, as
    /// FixedFloat's clients read it (the maintenance message is the web app's).
    pub(crate) fn asset(side: &QuoteSide, btc: Option<String>) -> WireSide {
        WireSide {
            maintenance: None,
            ..WireSide::of(side, btc)
        }
    }

    pub(crate) fn of(side: &QuoteSide, btc: Option<String>) -> WireSide {
        WireSide {
            amount: to_wire(side.amount),
            code: &side.currency.code,
            coin: &side.currency.coin,
            network: &side.currency.network,
            min: to_wire(side.min),
            max: to_wire(side.max),
            precision: side.currency.precision,
            rate: to_wire(side.rate),
            usd: format!("{:.2}", side.usd),
            btc,
            maintenance: side.maintenance.clone(),
        }
    }
}

/// The quote in the envelope the client reads: `{code: 0, msg, data: {errors, from, to}}`,
/// serialised straight from these fields (no intermediate JSON tree: this is the hot path).
#[derive(Serialize)]
pub struct QuoteEnvelope {
    code: u8,
    msg: &'static str,
    data: QuoteData,
}

#[derive(Serialize)]
struct QuoteData {
    errors: Vec<&'static str>,
    from: WireSide,
    to: WireSide,
}

pub fn quote_envelope(quote: &Quote) -> QuoteEnvelope {
    QuoteEnvelope {
        code: 0,
        msg: "OK",
        data: QuoteData {
            errors: quote.issues.iter().map(|i| i.code()).collect(),
            from: WireSide::of(&quote.from, Some(to_wire(quote.from_btc))),
            to: WireSide::of(&quote.to, None),
        },
    }
}

#[utoipa::path(
    post,
    path = "/api/exchange-rate",
    tag = "exchange",
    summary = "A quote",
    request_body = ExchangeRateRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn get_exchange_rate(
    State(state): State<AppState>,
    client: ClientAddress,
    ApiJson(body): ApiJson<ExchangeRateRequest>,
) -> Result<Response, ApiError> {
    if let Err(wait) = state.limits.quotes.take(&client.key()).await {
        return Ok(rate_limited(wait.seconds()));
    }
    let service = QuoteService {
        catalogue: state.catalogue,
        provider: state.provider.as_ref(),
        switches: &state.switches,
        fees: state.config.fees(),
        partner_markup: false,
    };
    let quote = service
        .quote(QuoteRequest {
            from: &body.from_currency,
            to: &body.to_currency,
            amount: &body.amount.0,
            direction: body.direction,
            rate_type: body.rate_type,
        })
        .await
        .map_err(quote_error)?;
    Ok(Json(quote_envelope(&quote)).into_response())
}

/// A quote's failure as the client sees it: what was wrong with the request, or that the
/// provider is away or busy — its details (addresses, messages) go to the log only.
pub fn quote_error(error: QuoteError) -> ApiError {
    match error {
        QuoteError::Provider(ProviderError::Busy(seconds)) => ApiError::TooManyRequests {
            message: format!(
                "The exchange service is busy; try again in {seconds} s (until {})",
                crate::now_unix() + seconds as i64
            ),
            retry_after: seconds as i64,
        },
        QuoteError::Provider(ProviderError::Rejected(reason)) => ApiError::BadRequest(reason),
        QuoteError::Provider(e) => {
            tracing::warn!(error = %e, "provider unavailable");
            ApiError::Unavailable(
                "The exchange service is unavailable right now; try again in a moment".into(),
            )
        }
        other => ApiError::BadRequest(other.to_string()),
    }
}

/// HTTP 429 with `Retry-After` and the envelope whose message names the Unix second to wait
/// for ('until <number>', which the client parses).
fn rate_limited(retry_after_seconds: u64) -> Response {
    let until = crate::now_unix() + retry_after_seconds as i64;
    let message = format!("Too many requests: quotes are paused until {until}");
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(json!({ "code": 429, "msg": message, "error": message, "data": null })),
    )
        .into_response();
    if let Ok(value) = HeaderValue::from_str(&retry_after_seconds.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

#[derive(Deserialize, utoipa::ToSchema)]
struct ValidateAddressRequest {
    currency: String,
    address: String,
    #[serde(default)]
    tag: Option<String>,
    /// The coin the customer will send, when known: a Lightning invoice must stay payable
    /// while that coin's deposit confirms.
    #[serde(default)]
    from_currency: Option<String>,
}

/// The server's verdict on an address (and tag) for a currency, so the widget can tell a
/// checksum typo from a wrong format before the order is placed.
#[utoipa::path(
    post,
    path = "/api/validate-address",
    tag = "exchange",
    summary = "The server's verdict on an address",
    request_body = ValidateAddressRequest,
    responses((status = 200, description = "OK", body = serde_json::Value))
)]
async fn validate_address(
    State(state): State<AppState>,
    client: ClientAddress,
    ApiJson(body): ApiJson<ValidateAddressRequest>,
) -> Result<Response, ApiError> {
    use crate::domain::address::{AddressError, AddressFamily, validate_tag};
    use crate::domain::lightning::InvoiceError;
    use crate::domain::money::to_wire;
    let currency = state
        .catalogue
        .get(&body.currency)
        .ok_or_else(|| ApiError::BadRequest(format!("Unknown currency {}", body.currency)))?;
    // A Lightning invoice is checked as an order would check it (time left, never used), and
    // its amount is what the order will be for.
    let mut invoice = None;
    let verdict = if currency.family == AddressFamily::Bolt11 {
        // A signature to recover and a lookup: counted with the client's quotes.
        if let Err(wait) = state.limits.quotes.take(&client.key()).await {
            return Ok(rate_limited(wait.seconds()));
        }
        match state
            .orders
            .lightning_invoice(
                &body.address,
                body.from_currency
                    .as_deref()
                    .and_then(|c| state.catalogue.get(c)),
                crate::now_unix(),
            )
            .await?
        {
            Ok(found) => {
                invoice = Some(
                    json!({ "amount": to_wire(found.amount), "expires_at": found.expires_at }),
                );
                Ok(())
            }
            Err(reason) => Err(AddressError::Invoice(reason)),
        }
    } else {
        crate::domain::address::validate_address(currency.family, &currency.network, &body.address)
    };
    // How long an invoice that expires too soon must last, for clients that word it themselves.
    let invoice_minutes = match &verdict {
        Err(AddressError::Invoice(InvoiceError::ExpiresTooSoon {
            minutes_left,
            minutes_needed,
        })) => Some(json!({ "left": minutes_left, "needed": minutes_needed })),
        _ => None,
    };
    let reason = match &verdict {
        Ok(()) => None,
        Err(AddressError::Empty) => Some("empty"),
        Err(AddressError::Format) => Some("format"),
        Err(AddressError::Checksum) => Some("checksum"),
        Err(AddressError::WrongNetwork) => Some("network"),
        Err(AddressError::Invoice(reason)) => Some(reason.code()),
    };
    // A well-formed address of another chain: say which, so the customer sees the mix-up.
    let looks_like = matches!(
        verdict,
        Err(AddressError::Format | AddressError::WrongNetwork)
    )
    .then(|| state.catalogue.looks_like(&body.address, currency))
    .flatten()
    .map(|c| {
        json!({ "code": c.code, "coin": c.coin, "network": c.network, "networkName": c.network_name })
    });
    let tag_error = body
        .tag
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .and_then(|t| validate_tag(currency.family, t).err())
        .map(|e| e.to_string());
    Ok(Json(json!({
        "code": 0,
        "msg": "OK",
        "data": {
            "valid": reason.is_none() && tag_error.is_none(),
            "reason": reason,
            "message": verdict.err().map(|e| match e {
                AddressError::Invoice(reason) => crate::services::orders::invoice_message(&reason),
                other => other.to_string(),
            }),
            "tag_error": tag_error,
            "looks_like": looks_like,
            "invoice": invoice,
            "invoice_minutes": invoice_minutes,
        }
    }))
    .into_response())
}
