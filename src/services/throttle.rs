//! Hourly allowances kept in the database (so every replica counts the same), for actions a
//! client may repeat only so often: mails asked for, contact messages sent.

use crate::store::{Store, StoreError};

const HOUR: i64 = 3600;

#[derive(Debug, thiserror::Error)]
pub enum AllowanceError {
    /// Used up; the seconds until the window ends.
    #[error("used up; retry in {0} s")]
    UsedUp(i64),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Counts one use of `key` against `per_hour`, or says when the allowance renews.
pub async fn take_hourly(
    store: &dyn Store,
    key: &str,
    per_hour: i64,
    now: i64,
) -> Result<(), AllowanceError> {
    let current = store
        .throttle(key)
        .await?
        .filter(|t| t.window_ends_at > now);
    if let Some(throttle) = current
        && throttle.failures >= per_hour
    {
        return Err(AllowanceError::UsedUp(throttle.window_ends_at - now));
    }
    let window_end = current.map_or(now + HOUR, |t| t.window_ends_at);
    store.record_failure(key, now, window_end).await?;
    Ok(())
}
