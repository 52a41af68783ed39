//! Accounts and the mail outbox: users, sessions, one-time tokens, recovery codes, social
//! identities, throttles and queued mail, over the same SQL as the rest of the store.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::orders::{ORDER_COLUMNS, insert_mail, orders_from_rows};
use super::sql::SqlStore;
use super::{OrderRecord, StoreError};
use crate::domain::operator::Role;

/// A user as stored. Times are Unix seconds; secrets are hashes (the TOTP secret excepted: a
/// server must be able to compute codes from it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserRecord {
    pub id: String,
    /// Lower-cased.
    pub email: String,
    pub full_name: String,
    /// Argon2id PHC string; `None` for accounts made by social sign-in.
    pub password_hash: Option<String>,
    pub email_verified_at: Option<i64>,
    pub referral_code: String,
    pub referred_by: Option<String>,
    /// Base32; set while 2FA is being enabled or is on.
    pub totp_secret: Option<String>,
    pub totp_enabled: bool,
    pub order_emails: bool,
    /// The language code the user reads the site in; mails are written in it.
    pub language: String,
    pub created_at: i64,
    pub updated_at: i64,
    /// The user's role in the back office; `None` for a customer.
    pub operator_role: Option<Role>,
    /// When an operator locked the account: no session works and none opens.
    pub locked_at: Option<i64>,
}

impl UserRecord {
    /// The language the user's mails are written in (English for an unknown code).
    pub fn mail_language(&self) -> crate::domain::language::Language {
        crate::domain::language::Language::parse(&self.language)
            .unwrap_or(crate::domain::language::Language::En)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    pub token_hash: String,
    pub id: String,
    pub user_id: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub last_seen_at: i64,
    pub user_agent: String,
    pub ip: String,
    /// When this session last proved the second factor or used the console (issue 22).
    pub console_seen_at: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserToken {
    pub token_hash: String,
    pub user_id: String,
    pub purpose: String,
    /// What the token is about (the e-mail a verification link confirms, a 2FA challenge's
    /// "remember me" …).
    pub detail: Option<String>,
    pub expires_at: i64,
    pub used_at: Option<i64>,
    pub created_at: i64,
}

/// What consuming a one-time token found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenUse {
    /// It was valid and is now used.
    Used(UserToken),
    Expired,
    /// Unknown, for another purpose, or already used.
    Invalid,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailRecord {
    pub id: String,
    pub recipient: String,
    pub subject: String,
    pub body: String,
    pub created_at: i64,
    pub attempts: i64,
    pub next_attempt_at: i64,
    pub sent_at: Option<i64>,
    pub last_error: Option<String>,
    /// When the SMTP server refused it for good; it is not sent again.
    pub failed_at: Option<i64>,
    /// Where replies go (the contact form's sender): a display name and an address.
    pub reply_to_name: Option<String>,
    pub reply_to_email: Option<String>,
}

/// What [`AccountStore::change_user`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserChange<'a> {
    Profile {
        full_name: &'a str,
        order_emails: bool,
        language: &'a str,
    },
    /// The address is proven (kept as first proven).
    EmailVerified,
    /// A new password from a reset link, which also proves the address.
    ResetPassword {
        hash: &'a str,
    },
    /// A new password a signed-in session asked for: written only while the stored password
    /// is still the one that session proved (`current`, none for an account without one) and
    /// the session still exists. Anything that changed the account's credentials meanwhile (its
    /// owner claiming it, a reset) wins.
    ChangePassword {
        hash: &'a str,
        current: Option<&'a str>,
        session: &'a str,
    },
    /// 2FA set-up began with this secret (not yet on).
    TotpSecret(&'a str),
    TotpOn,
    TotpOff,
}

/// A social sign-in under way: what the callback needs, and the browser it must come back to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthState {
    pub state: String,
    pub provider: String,
    /// The PKCE verifier.
    pub verifier: String,
    /// A hash of the random value in the starting browser's `ferry_oauth` cookie.
    pub browser_hash: String,
    pub expires_at: i64,
}

/// A failure counter's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throttle {
    pub failures: i64,
    pub window_ends_at: i64,
}

#[async_trait]
pub trait AccountStore: Send + Sync {
    /// A taken e-mail or referral code is `StoreError::Conflict`.
    async fn insert_user(&self, user: &UserRecord) -> Result<(), StoreError>;
    async fn find_user(&self, id: &str) -> Result<Option<UserRecord>, StoreError>;
    async fn find_user_by_email(&self, email: &str) -> Result<Option<UserRecord>, StoreError>;
    async fn find_user_by_referral_code(
        &self,
        code: &str,
    ) -> Result<Option<UserRecord>, StoreError>;
    /// Writes every field but the id, the e-mail and the referral data.
    /// Writes one change of an account, only its own columns: two changes at once never undo
    /// each other (a profile edit cannot bring back a password that was just replaced).
    /// `false` when nothing was changed (the condition of the change no longer holds).
    async fn change_user(
        &self,
        user_id: &str,
        change: UserChange<'_>,
        now: i64,
    ) -> Result<bool, StoreError>;
    /// Hands an account whose address was never proven to whoever just proved it: in one
    /// transaction its password, 2FA and referrer are cleared, the address marked verified, and
    /// its sessions, recovery codes and pending links ended. `false` (and nothing changed) when
    /// the account is verified by then.
    async fn claim_unverified_account(&self, user_id: &str, now: i64) -> Result<bool, StoreError>;
    /// Records that the TOTP time step `step` was used; `false` if it (or a later one) already
    /// was, so that a code works once.
    async fn claim_totp_step(&self, user_id: &str, step: i64) -> Result<bool, StoreError>;
    /// Deletes the user and everything that is only theirs; their orders stay (they are the
    /// exchange's records) without an owner.
    async fn delete_user(&self, id: &str) -> Result<(), StoreError>;

    async fn insert_session(&self, session: &SessionRecord) -> Result<(), StoreError>;
    /// The unexpired session with this token hash, its last use updated to `now`.
    async fn touch_session(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<SessionRecord>, StoreError>;
    async fn sessions_of(&self, user_id: &str, now: i64) -> Result<Vec<SessionRecord>, StoreError>;
    async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError>;
    /// Opens (the time of the last proof or use) or locks (`None`) the back office for a session.
    async fn set_console_seen(&self, token_hash: &str, at: Option<i64>) -> Result<(), StoreError>;
    /// Keeps an open console open (its use at `now`); a locked one stays locked.
    async fn touch_console(&self, token_hash: &str, now: i64) -> Result<(), StoreError>;
    /// `false` when the user has no session with that id.
    async fn delete_session_by_id(&self, user_id: &str, id: &str) -> Result<bool, StoreError>;
    /// Signs the user out everywhere but `keep` (a token hash); returns how many ended.
    async fn delete_sessions_of(
        &self,
        user_id: &str,
        keep: Option<&str>,
    ) -> Result<u64, StoreError>;

    async fn insert_token(&self, token: &UserToken) -> Result<(), StoreError>;
    async fn find_token(
        &self,
        token_hash: &str,
        purpose: &str,
    ) -> Result<Option<UserToken>, StoreError>;
    /// Marks the token used if it is unused, unexpired and for `purpose` — atomically, so a
    /// token works once even when two requests race.
    async fn use_token(
        &self,
        token_hash: &str,
        purpose: &str,
        now: i64,
    ) -> Result<TokenUse, StoreError>;
    /// Ends every unused token of the user for `purpose` (a new password ends old reset links).
    async fn revoke_tokens(&self, user_id: &str, purpose: &str, now: i64)
    -> Result<(), StoreError>;

    async fn replace_recovery_codes(
        &self,
        user_id: &str,
        code_hashes: &[String],
    ) -> Result<(), StoreError>;
    async fn use_recovery_code(
        &self,
        user_id: &str,
        code_hash: &str,
        now: i64,
    ) -> Result<bool, StoreError>;
    async fn unused_recovery_codes(&self, user_id: &str) -> Result<i64, StoreError>;

    async fn find_identity(
        &self,
        provider: &str,
        subject: &str,
    ) -> Result<Option<String>, StoreError>;
    async fn insert_identity(
        &self,
        provider: &str,
        subject: &str,
        user_id: &str,
        now: i64,
    ) -> Result<(), StoreError>;
    async fn insert_oauth_state(&self, state: &OAuthState) -> Result<(), StoreError>;
    /// Removes and returns an unexpired state.
    async fn take_oauth_state(
        &self,
        state: &str,
        now: i64,
    ) -> Result<Option<OAuthState>, StoreError>;

    async fn throttle(&self, key: &str) -> Result<Option<Throttle>, StoreError>;
    /// Counts a failure: the count restarts when the last window ended, and every failure
    /// moves the window's end to `window_ends_at`.
    async fn record_failure(
        &self,
        key: &str,
        now: i64,
        window_ends_at: i64,
    ) -> Result<Throttle, StoreError>;
    async fn clear_throttle(&self, key: &str) -> Result<(), StoreError>;

    /// The user's orders, newest first.
    async fn orders_of(&self, user_id: &str, limit: i64) -> Result<Vec<OrderRecord>, StoreError>;

    async fn enqueue_mail(&self, mail: &MailRecord) -> Result<(), StoreError>;
    /// Leases up to `limit` unsent mails that are due, for `lease_seconds`.
    async fn lease_due_mail(
        &self,
        now: i64,
        owner: &str,
        lease_seconds: i64,
        limit: i64,
    ) -> Result<Vec<MailRecord>, StoreError>;
    async fn mark_mail_sent(&self, id: &str, now: i64) -> Result<(), StoreError>;
    /// A failed attempt that may succeed later: tried again at `next_attempt_at`.
    async fn mark_mail_for_retry(
        &self,
        id: &str,
        error: &str,
        next_attempt_at: i64,
    ) -> Result<(), StoreError>;
    /// A mail the server refused for good: never leased again.
    async fn mark_mail_refused(&self, id: &str, error: &str, now: i64) -> Result<(), StoreError>;
    /// Every mail to `recipient`, oldest first (operators and tests).
    async fn mail_to(&self, recipient: &str) -> Result<Vec<MailRecord>, StoreError>;
}

pub(super) const USER_COLUMNS: &str = "id, email, full_name, password_hash, email_verified_at, \
    referral_code, referred_by, totp_secret, totp_enabled, order_emails, created_at, updated_at, \
    language, operator_role, locked_at";

const SESSION_COLUMNS: &str = "token_hash, id, user_id, created_at, expires_at, last_seen_at, user_agent, ip, \
     console_seen_at";

const MAIL_COLUMNS: &str = "id, recipient, subject, body, created_at, attempts, \
    next_attempt_at, sent_at, last_error, failed_at, reply_to_name, reply_to_email";

pub(super) fn user_from_row(row: &AnyRow) -> Result<UserRecord, sqlx::Error> {
    let role: Option<String> = row.try_get("operator_role")?;
    let operator_role = role
        .map(|r| {
            Role::parse(&r)
                .ok_or_else(|| sqlx::Error::Decode(format!("unknown operator_role {r:?}").into()))
        })
        .transpose()?;
    Ok(UserRecord {
        id: row.try_get("id")?,
        email: row.try_get("email")?,
        full_name: row.try_get("full_name")?,
        password_hash: row.try_get("password_hash")?,
        email_verified_at: row.try_get("email_verified_at")?,
        referral_code: row.try_get("referral_code")?,
        referred_by: row.try_get("referred_by")?,
        totp_secret: row.try_get("totp_secret")?,
        totp_enabled: row.try_get::<i64, _>("totp_enabled")? != 0,
        order_emails: row.try_get::<i64, _>("order_emails")? != 0,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        language: row.try_get("language")?,
        operator_role,
        locked_at: row.try_get("locked_at")?,
    })
}

fn session_from_row(row: &AnyRow) -> Result<SessionRecord, sqlx::Error> {
    Ok(SessionRecord {
        token_hash: row.try_get("token_hash")?,
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        created_at: row.try_get("created_at")?,
        expires_at: row.try_get("expires_at")?,
        last_seen_at: row.try_get("last_seen_at")?,
        user_agent: row.try_get("user_agent")?,
        ip: row.try_get("ip")?,
        console_seen_at: row.try_get("console_seen_at")?,
    })
}

fn mail_from_row(row: &AnyRow) -> Result<MailRecord, sqlx::Error> {
    Ok(MailRecord {
        id: row.try_get("id")?,
        recipient: row.try_get("recipient")?,
        subject: row.try_get("subject")?,
        body: row.try_get("body")?,
        created_at: row.try_get("created_at")?,
        attempts: row.try_get("attempts")?,
        next_attempt_at: row.try_get("next_attempt_at")?,
        sent_at: row.try_get("sent_at")?,
        last_error: row.try_get("last_error")?,
        failed_at: row.try_get("failed_at")?,
        reply_to_name: row.try_get("reply_to_name")?,
        reply_to_email: row.try_get("reply_to_email")?,
    })
}

impl SqlStore {
    async fn find_user_where(
        &self,
        column: &str,
        value: &str,
    ) -> Result<Option<UserRecord>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLUMNS} FROM users WHERE {column} = $1"
        ))
        .bind(value)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(user_from_row).transpose()?)
    }
}

#[async_trait]
impl AccountStore for SqlStore {
    async fn insert_user(&self, u: &UserRecord) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO users ({USER_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
        ))
        .bind(&u.id)
        .bind(&u.email)
        .bind(&u.full_name)
        .bind(&u.password_hash)
        .bind(u.email_verified_at)
        .bind(&u.referral_code)
        .bind(&u.referred_by)
        .bind(&u.totp_secret)
        .bind(i64::from(u.totp_enabled))
        .bind(i64::from(u.order_emails))
        .bind(u.created_at)
        .bind(u.updated_at)
        .bind(&u.language)
        .bind(u.operator_role.map(Role::as_str))
        .bind(u.locked_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn find_user(&self, id: &str) -> Result<Option<UserRecord>, StoreError> {
        self.find_user_where("id", id).await
    }

    async fn find_user_by_email(&self, email: &str) -> Result<Option<UserRecord>, StoreError> {
        self.find_user_where("email", email).await
    }

    async fn find_user_by_referral_code(
        &self,
        code: &str,
    ) -> Result<Option<UserRecord>, StoreError> {
        self.find_user_where("referral_code", code).await
    }

    async fn change_user(
        &self,
        user_id: &str,
        change: UserChange<'_>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let query = match change {
            UserChange::Profile {
                full_name,
                order_emails,
                language,
            } => sqlx::query(
                "UPDATE users SET full_name = $3, order_emails = $4, language = $5, \
                 updated_at = $2 WHERE id = $1",
            )
            .bind(user_id)
            .bind(now)
            .bind(full_name)
            .bind(i64::from(order_emails))
            .bind(language),
            UserChange::EmailVerified => sqlx::query(
                "UPDATE users SET email_verified_at = COALESCE(email_verified_at, $2), \
                 updated_at = $2 WHERE id = $1",
            )
            .bind(user_id)
            .bind(now),
            UserChange::ResetPassword { hash } => sqlx::query(
                "UPDATE users SET password_hash = $3, updated_at = $2, \
                 email_verified_at = COALESCE(email_verified_at, $2) WHERE id = $1",
            )
            .bind(user_id)
            .bind(now)
            .bind(hash),
            UserChange::ChangePassword {
                hash,
                current,
                session,
            } => sqlx::query(
                "UPDATE users SET password_hash = $3, updated_at = $2 WHERE id = $1 \
                 AND password_hash IS NOT DISTINCT FROM $4 \
                 AND EXISTS (SELECT 1 FROM sessions WHERE token_hash = $5 AND user_id = $1)",
            )
            .bind(user_id)
            .bind(now)
            .bind(hash)
            .bind(current)
            .bind(session),
            UserChange::TotpSecret(secret) => sqlx::query(
                "UPDATE users SET totp_secret = $3, updated_at = $2 \
                 WHERE id = $1 AND totp_enabled = 0",
            )
            .bind(user_id)
            .bind(now)
            .bind(secret),
            UserChange::TotpOn => sqlx::query(
                "UPDATE users SET totp_enabled = 1, updated_at = $2 \
                 WHERE id = $1 AND totp_secret IS NOT NULL",
            )
            .bind(user_id)
            .bind(now),
            UserChange::TotpOff => sqlx::query(
                "UPDATE users SET totp_enabled = 0, totp_secret = NULL, updated_at = $2 \
                 WHERE id = $1",
            )
            .bind(user_id)
            .bind(now),
        };
        let second_factor_changed = matches!(change, UserChange::TotpOn | UserChange::TotpOff);
        let mut tx = self.pool().begin().await?;
        let changed = query.execute(&mut *tx).await?.rows_affected() == 1;
        if changed && second_factor_changed {
            // The back office opens again only with a code of the factor as it now is.
            sqlx::query("UPDATE sessions SET console_seen_at = NULL WHERE user_id = $1")
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(changed)
    }

    async fn claim_unverified_account(&self, user_id: &str, now: i64) -> Result<bool, StoreError> {
        let mut tx = self.pool().begin().await?;
        let claimed = sqlx::query(
            "UPDATE users SET password_hash = NULL, totp_enabled = 0, totp_secret = NULL, \
             referred_by = NULL, operator_role = NULL, email_verified_at = $2, updated_at = $2 \
             WHERE id = $1 AND email_verified_at IS NULL",
        )
        .bind(user_id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        for statement in [
            "DELETE FROM sessions WHERE user_id = $1",
            "DELETE FROM recovery_codes WHERE user_id = $1",
        ] {
            sqlx::query(statement)
                .bind(user_id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("UPDATE user_tokens SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL")
            .bind(user_id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn claim_totp_step(&self, user_id: &str, step: i64) -> Result<bool, StoreError> {
        let result = sqlx::query(
            "UPDATE users SET totp_last_step = $2 \
             WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)",
        )
        .bind(user_id)
        .bind(step)
        .execute(self.pool())
        .await?;
        Ok(result.rows_affected() == 1)
    }

    async fn delete_user(&self, id: &str) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("UPDATE orders SET owner_user_id = NULL WHERE owner_user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        for table in [
            "sessions",
            "user_tokens",
            "recovery_codes",
            "oauth_identities",
        ] {
            sqlx::query(&format!("DELETE FROM {table} WHERE user_id = $1"))
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("DELETE FROM users WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn insert_session(&self, s: &SessionRecord) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO sessions ({SESSION_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        ))
        .bind(&s.token_hash)
        .bind(&s.id)
        .bind(&s.user_id)
        .bind(s.created_at)
        .bind(s.expires_at)
        .bind(s.last_seen_at)
        .bind(&s.user_agent)
        .bind(&s.ip)
        .bind(s.console_seen_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn touch_session(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<SessionRecord>, StoreError> {
        // Writing on every request would serialise SQLite; a minute's precision is plenty.
        let row = sqlx::query(&format!(
            "SELECT {SESSION_COLUMNS} FROM sessions WHERE token_hash = $1 AND expires_at > $2"
        ))
        .bind(token_hash)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        let Some(mut session) = row.as_ref().map(session_from_row).transpose()? else {
            return Ok(None);
        };
        if now - session.last_seen_at >= 60 {
            sqlx::query("UPDATE sessions SET last_seen_at = $2 WHERE token_hash = $1")
                .bind(token_hash)
                .bind(now)
                .execute(self.pool())
                .await?;
            session.last_seen_at = now;
        }
        Ok(Some(session))
    }

    async fn sessions_of(&self, user_id: &str, now: i64) -> Result<Vec<SessionRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {SESSION_COLUMNS} FROM sessions WHERE user_id = $1 AND expires_at > $2 \
             ORDER BY last_seen_at DESC"
        ))
        .bind(user_id)
        .bind(now)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(session_from_row)
            .collect::<Result<_, _>>()?)
    }

    async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    async fn set_console_seen(&self, token_hash: &str, at: Option<i64>) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET console_seen_at = $2 WHERE token_hash = $1")
            .bind(token_hash)
            .bind(at)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    async fn touch_console(&self, token_hash: &str, now: i64) -> Result<(), StoreError> {
        // A request that read the session before it was locked does not open it again.
        sqlx::query(
            "UPDATE sessions SET console_seen_at = $2 \
             WHERE token_hash = $1 AND console_seen_at IS NOT NULL",
        )
        .bind(token_hash)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn delete_session_by_id(&self, user_id: &str, id: &str) -> Result<bool, StoreError> {
        let result = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id = $2")
            .bind(user_id)
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(result.rows_affected() == 1)
    }

    async fn delete_sessions_of(
        &self,
        user_id: &str,
        keep: Option<&str>,
    ) -> Result<u64, StoreError> {
        let result = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
            .bind(user_id)
            .bind(keep.unwrap_or(""))
            .execute(self.pool())
            .await?;
        Ok(result.rows_affected())
    }

    async fn insert_token(&self, t: &UserToken) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO user_tokens \
             (token_hash, user_id, purpose, detail, expires_at, used_at, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&t.token_hash)
        .bind(&t.user_id)
        .bind(&t.purpose)
        .bind(&t.detail)
        .bind(t.expires_at)
        .bind(t.used_at)
        .bind(t.created_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn find_token(
        &self,
        token_hash: &str,
        purpose: &str,
    ) -> Result<Option<UserToken>, StoreError> {
        let row = sqlx::query(
            "SELECT token_hash, user_id, purpose, detail, expires_at, used_at, created_at \
             FROM user_tokens WHERE token_hash = $1 AND purpose = $2",
        )
        .bind(token_hash)
        .bind(purpose)
        .fetch_optional(self.pool())
        .await?;
        row.map(|row| -> Result<UserToken, StoreError> {
            Ok(UserToken {
                token_hash: row.try_get("token_hash")?,
                user_id: row.try_get("user_id")?,
                purpose: row.try_get("purpose")?,
                detail: row.try_get("detail")?,
                expires_at: row.try_get("expires_at")?,
                used_at: row.try_get("used_at")?,
                created_at: row.try_get("created_at")?,
            })
        })
        .transpose()
    }

    async fn use_token(
        &self,
        token_hash: &str,
        purpose: &str,
        now: i64,
    ) -> Result<TokenUse, StoreError> {
        let claimed = sqlx::query(
            "UPDATE user_tokens SET used_at = $3 \
             WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3",
        )
        .bind(token_hash)
        .bind(purpose)
        .bind(now)
        .execute(self.pool())
        .await?
        .rows_affected()
            == 1;
        let Some(token) = self.find_token(token_hash, purpose).await? else {
            return Ok(TokenUse::Invalid);
        };
        Ok(if claimed {
            TokenUse::Used(token)
        } else if token.used_at.is_none() && token.expires_at <= now {
            TokenUse::Expired
        } else {
            TokenUse::Invalid
        })
    }

    async fn revoke_tokens(
        &self,
        user_id: &str,
        purpose: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE user_tokens SET used_at = $3 \
             WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL",
        )
        .bind(user_id)
        .bind(purpose)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn replace_recovery_codes(
        &self,
        user_id: &str,
        code_hashes: &[String],
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query("DELETE FROM recovery_codes WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        for hash in code_hashes {
            sqlx::query("INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)")
                .bind(user_id)
                .bind(hash)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn use_recovery_code(
        &self,
        user_id: &str,
        code_hash: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let result = sqlx::query(
            "UPDATE recovery_codes SET used_at = $3 \
             WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL",
        )
        .bind(user_id)
        .bind(code_hash)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(result.rows_affected() == 1)
    }

    async fn unused_recovery_codes(&self, user_id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL",
        )
        .bind(user_id)
        .fetch_one(self.pool())
        .await?;
        Ok(row.try_get("n")?)
    }

    async fn find_identity(
        &self,
        provider: &str,
        subject: &str,
    ) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT user_id FROM oauth_identities WHERE provider = $1 AND subject = $2",
        )
        .bind(provider)
        .bind(subject)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| r.try_get("user_id")).transpose()?)
    }

    async fn insert_identity(
        &self,
        provider: &str,
        subject: &str,
        user_id: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO oauth_identities (provider, subject, user_id, created_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(provider)
        .bind(subject)
        .bind(user_id)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn insert_oauth_state(&self, s: &OAuthState) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO oauth_states (state, provider, verifier, browser_hash, expires_at) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&s.state)
        .bind(&s.provider)
        .bind(&s.verifier)
        .bind(&s.browser_hash)
        .bind(s.expires_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn take_oauth_state(
        &self,
        state: &str,
        now: i64,
    ) -> Result<Option<OAuthState>, StoreError> {
        let row = sqlx::query(
            "DELETE FROM oauth_states WHERE state = $1 \
             RETURNING state, provider, verifier, browser_hash, expires_at",
        )
        .bind(state)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let found = OAuthState {
            state: row.try_get("state")?,
            provider: row.try_get("provider")?,
            verifier: row.try_get("verifier")?,
            browser_hash: row
                .try_get::<Option<String>, _>("browser_hash")?
                .unwrap_or_default(),
            expires_at: row.try_get("expires_at")?,
        };
        Ok((found.expires_at > now).then_some(found))
    }

    async fn throttle(&self, key: &str) -> Result<Option<Throttle>, StoreError> {
        let row = sqlx::query("SELECT failures, window_ends_at FROM throttles WHERE key = $1")
            .bind(key)
            .fetch_optional(self.pool())
            .await?;
        Ok(row
            .map(|r| -> Result<Throttle, sqlx::Error> {
                Ok(Throttle {
                    failures: r.try_get("failures")?,
                    window_ends_at: r.try_get("window_ends_at")?,
                })
            })
            .transpose()?)
    }

    async fn record_failure(
        &self,
        key: &str,
        now: i64,
        window_ends_at: i64,
    ) -> Result<Throttle, StoreError> {
        let row = sqlx::query(
            "INSERT INTO throttles (key, failures, window_ends_at) VALUES ($1, 1, $2) \
             ON CONFLICT (key) DO UPDATE SET \
                 failures = CASE WHEN throttles.window_ends_at <= $3 THEN 1 \
                                 ELSE throttles.failures + 1 END, \
                 window_ends_at = $2 \
             RETURNING failures, window_ends_at",
        )
        .bind(key)
        .bind(window_ends_at)
        .bind(now)
        .fetch_one(self.pool())
        .await?;
        Ok(Throttle {
            failures: row.try_get("failures")?,
            window_ends_at: row.try_get("window_ends_at")?,
        })
    }

    async fn clear_throttle(&self, key: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM throttles WHERE key = $1")
            .bind(key)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    async fn orders_of(&self, user_id: &str, limit: i64) -> Result<Vec<OrderRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {} FROM orders WHERE owner_user_id = $1 ORDER BY created_at DESC, id LIMIT $2",
            ORDER_COLUMNS
        ))
        .bind(user_id)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        orders_from_rows(&rows)
    }

    async fn enqueue_mail(&self, m: &MailRecord) -> Result<(), StoreError> {
        insert_mail(self.pool(), m).await?;
        Ok(())
    }

    async fn lease_due_mail(
        &self,
        now: i64,
        owner: &str,
        lease_seconds: i64,
        limit: i64,
    ) -> Result<Vec<MailRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "UPDATE mail_outbox SET lease_owner = $1, lease_until = $2 \
             WHERE id IN (SELECT id FROM mail_outbox WHERE sent_at IS NULL AND failed_at IS NULL \
                 AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < $3) \
                 ORDER BY next_attempt_at LIMIT $4) \
             AND (lease_until IS NULL OR lease_until < $3) \
             RETURNING {MAIL_COLUMNS}"
        ))
        .bind(owner)
        .bind(now + lease_seconds)
        .bind(now)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(mail_from_row).collect::<Result<_, _>>()?)
    }

    async fn mark_mail_sent(&self, id: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE mail_outbox SET sent_at = $2, attempts = attempts + 1, last_error = NULL, \
             lease_owner = NULL, lease_until = NULL WHERE id = $1",
        )
        .bind(id)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn mark_mail_for_retry(
        &self,
        id: &str,
        error: &str,
        next_attempt_at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, \
             next_attempt_at = $3, lease_owner = NULL, lease_until = NULL WHERE id = $1",
        )
        .bind(id)
        .bind(error)
        .bind(next_attempt_at)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn mark_mail_refused(&self, id: &str, error: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, failed_at = $3, \
             lease_owner = NULL, lease_until = NULL WHERE id = $1",
        )
        .bind(id)
        .bind(error)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    async fn mail_to(&self, recipient: &str) -> Result<Vec<MailRecord>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {MAIL_COLUMNS} FROM mail_outbox WHERE recipient = $1 ORDER BY created_at, id"
        ))
        .bind(recipient)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(mail_from_row).collect::<Result<_, _>>()?)
    }
}
