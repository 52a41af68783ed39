//! The partner programme (issue #7): API keys and the signature of the partner API, the
//! affiliate ledger and payouts, webhooks, and the partner API's wire format.

pub mod keys;
pub mod ledger;
pub mod public_net;
pub mod qr;
pub mod webhooks;
pub mod wire;

use std::sync::Arc;

/// The partner programme as the order service uses it: what an order's change brings with it.
pub struct Partners {
    pub keys: Arc<keys::ApiKeys>,
    pub ledger: Arc<ledger::Ledger>,
    pub webhooks: Arc<webhooks::Webhooks>,
}
