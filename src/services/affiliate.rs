//! The affiliate programme's use cases. For now: recording referral clicks.

use crate::domain::referral::{self, ReferralCode};
use crate::store::{NewReferralClick, Store, StoreError};

/// What the visitor's browser sent and who it is, as far as the server can tell.
pub struct Click<'a> {
    pub referral_code: &'a str,
    pub source: Option<&'a str>,
    /// The client as per-client limits count it (`limits::ClientKey::label`).
    pub client: &'a str,
    pub now_unix: i64,
}

/// Records a referral click once per code, visitor and day. A malformed code is ignored the
/// same way as an unknown one, so the answer tells an attacker nothing.
pub async fn record_click(store: &dyn Store, click: Click<'_>) -> Result<(), StoreError> {
    let Some(code) = ReferralCode::parse(click.referral_code) else {
        tracing::debug!("ignored a malformed referral code");
        return Ok(());
    };
    store
        .record_referral_click(&NewReferralClick {
            referral_code: code.as_str().to_owned(),
            visitor_key: referral::visitor_key(click.client),
            day: referral::day_of(click.now_unix),
            source: referral::click_source(click.source),
            created_at: click.now_unix,
        })
        .await?;
    Ok(())
}
