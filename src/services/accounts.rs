//! Accounts (spec/accounts-and-pages.md §2.8–2.13, §4.1, §5, §7, §8): sign-up, sign-in with an
//! optional TOTP second factor, sessions, e-mail verification, password reset and change,
//! throttling of failed attempts, and the profile's settings.
//!
//! Secrets are never stored as given: passwords as Argon2id hashes, session and link tokens
//! and recovery codes as SHA-256 hashes of 256-bit (or 80-bit for recovery codes) random values.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use rand::RngCore;
use totp_rs::{Algorithm, TOTP};

use crate::domain::account::{
    self, Email, Idn, RECOVERY_CODES, TOTP_DIGITS, TOTP_STEP_SECONDS, check_new_password,
    matching_totp_step, normalize_recovery_code, token_hash,
};
use crate::domain::referral::ReferralCode;
use crate::services::mail::{Mailer, templates};
use crate::services::throttle::{AllowanceError, take_hourly};
use crate::store::{
    DynStore, SessionRecord, StoreError, TokenUse, UserChange, UserRecord, UserToken,
};

/// A session without "Remember me" lasts a day; with it, thirty.
pub const SESSION_SECONDS: i64 = 24 * 3600;
pub const REMEMBERED_SESSION_SECONDS: i64 = 30 * 24 * 3600;
/// Validity of the links sent by mail.
pub const VERIFY_LINK_SECONDS: i64 = 24 * 3600;
pub const RESET_LINK_SECONDS: i64 = 3600;
/// Time to type the 2FA code after the password.
pub const CHALLENGE_SECONDS: i64 = 5 * 60;
/// Time to exchange a social sign-in hand-off for a session.
pub const HANDOFF_SECONDS: i64 = 2 * 60;
/// How recent a provider sign-in must be for a password-less account's sensitive changes.
const FRESH_SIGN_IN_SECONDS: i64 = 10 * 60;
/// A client address may fail this many times more often than one account.
const ADDRESS_FACTOR: i64 = 4;
/// Mails of one kind a user or address may ask for per hour.
const MAILS_PER_HOUR: i64 = 5;

const PURPOSE_VERIFY: &str = "verify";
const PURPOSE_RESET: &str = "reset";
const PURPOSE_CHALLENGE: &str = "2fa";
const PURPOSE_HANDOFF: &str = "handoff";

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("{0}")]
    Invalid(String),
    #[error("Invalid email or password")]
    InvalidCredentials,
    #[error("The current password is not correct")]
    WrongPassword,
    #[error("An account with this email already exists")]
    EmailTaken,
    #[error("Too many attempts. Try again in {minutes} minute(s).")]
    TooManyAttempts { minutes: i64, retry_after: i64 },
    #[error("Invalid two-factor code")]
    InvalidCode,
    #[error("Your sign-in expired. Sign in with your password again.")]
    ChallengeExpired,
    #[error("{0}")]
    LinkExpired(&'static str),
    #[error("{0}")]
    LinkInvalid(&'static str),
    #[error("{0}")]
    Conflict(&'static str),
    /// A sensitive change on an account without a password: the user must have signed in
    /// through their provider a moment ago.
    #[error(
        "For your safety, sign in again with Google or GitHub first, then do this within 10 minutes"
    )]
    FreshSignInRequired,
    #[error("Not found")]
    NotFound,
    /// An operator locked the account.
    #[error("This account is locked. Write to support to have it unlocked.")]
    Locked,
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Every hashing turn was taken for longer than a sign-in should wait (see `hashing_turns`).
    #[error("Too many sign-ins at once; try again in a few seconds")]
    Busy,
    #[error("internal error: {0}")]
    Internal(String),
}

/// Who is asking: kept with sessions so the profile can list them, and used for throttling.
#[derive(Debug, Clone)]
pub struct ClientInfo {
    pub ip: String,
    /// How throttles count the client: its address, or for IPv6 its /64.
    pub throttle_key: String,
    pub user_agent: String,
}

/// A new session: the token goes to the client once; only its hash is kept.
#[derive(Debug, Clone)]
pub struct IssuedSession {
    pub token: String,
    pub session: SessionRecord,
    pub user: UserRecord,
}

/// What the password step of sign-in leads to.
#[derive(Debug)]
pub enum LoginOutcome {
    SignedIn(Box<IssuedSession>),
    /// The account has 2FA: the code step must present this challenge.
    SecondFactor {
        user_id: String,
        /// The account's address: the code step names it (a provider's sign-in never typed it).
        email: String,
        challenge: String,
    },
}

pub struct Registration<'a> {
    pub email: &'a str,
    pub password: &'a str,
    pub confirm_password: &'a str,
    pub full_name: Option<&'a str>,
    pub referral_code: Option<&'a str>,
    /// The language the user reads the site in (a supported code; others mean English).
    pub language: Option<&'a str>,
}

/// A user about to be stored.
struct NewAccount {
    email: Email,
    full_name: String,
    password_hash: Option<String>,
    referred_by: Option<String>,
    email_verified_at: Option<i64>,
    language: crate::domain::language::Language,
}

/// What a user sees when enabling 2FA.
#[derive(Debug, Clone)]
pub struct TotpSetup {
    pub secret: String,
    pub otpauth_uri: String,
}

pub struct AccountSettings {
    pub public_url: String,
    pub site_name: String,
    pub support_email: String,
    pub max_failures: i64,
    pub pause_seconds: i64,
    /// Which e-mail addresses are accepted (`FERRY_MAIL_ALLOW_IDN`).
    pub email_idn: Idn,
}

pub struct Accounts {
    store: DynStore,
    mailer: Mailer,
    settings: AccountSettings,
    /// Verified against when the e-mail is unknown, so both cases take the same time.
    dummy_hash: String,
    /// Sign-ins in progress per client (see `SIGN_INS_PER_CLIENT`).
    signing_in: InFlight,
    /// Console unlocks in progress per user: one at a time, so that the 2FA pause counts
    /// every guess (parallel guesses would all pass the check before the first failure counts).
    unlocking: InFlight,
}

impl Accounts {
    pub fn new(store: DynStore, mailer: Mailer, settings: AccountSettings) -> Accounts {
        let dummy_hash = hash_password_now("not a real password").unwrap_or_default();
        Accounts {
            store,
            mailer,
            settings,
            dummy_hash,
            signing_in: InFlight::default(),
            unlocking: InFlight::default(),
        }
    }

    pub fn mailer(&self) -> &Mailer {
        &self.mailer
    }

    // ---- sign-up, sign-in, sign-out -------------------------------------------------------

    #[tracing::instrument(skip_all)]
    pub async fn register(
        &self,
        form: Registration<'_>,
        client: &ClientInfo,
        now: i64,
    ) -> Result<IssuedSession, AccountError> {
        let email = Email::parse(form.email, self.settings.email_idn).map_err(invalid)?;
        check_new_password(form.password, form.confirm_password).map_err(invalid)?;
        let full_name = match form.full_name {
            Some(name) => account::parse_full_name(name).map_err(invalid)?,
            None => account::default_full_name(&email),
        };
        if self
            .store
            .find_user_by_email(email.as_str())
            .await?
            .is_some()
        {
            return Err(AccountError::EmailTaken);
        }
        let referred_by = match form.referral_code.and_then(ReferralCode::parse) {
            Some(code) => self
                .store
                .find_user_by_referral_code(code.as_str())
                .await?
                .map(|referrer| referrer.referral_code),
            None => None,
        };
        let password_hash = hash_password(form.password.to_owned()).await?;
        let language = form
            .language
            .and_then(crate::domain::language::Language::parse)
            .unwrap_or(crate::domain::language::Language::En);
        let user = self
            .insert_user(
                NewAccount {
                    email,
                    full_name,
                    password_hash: Some(password_hash),
                    referred_by,
                    email_verified_at: None,
                    language,
                },
                now,
            )
            .await?;
        self.send_verification_mail(&user, now).await?;
        self.issue_session(user, false, client, now, false).await
    }

    /// Inserts a user with a fresh referral code (drawn again on the rare collision).
    async fn insert_user(&self, new: NewAccount, now: i64) -> Result<UserRecord, AccountError> {
        let mut user = UserRecord {
            id: uuid::Uuid::new_v4().to_string(),
            email: new.email.into_string(),
            full_name: new.full_name,
            password_hash: new.password_hash,
            email_verified_at: new.email_verified_at,
            referral_code: new_referral_code(),
            referred_by: new.referred_by,
            totp_secret: None,
            totp_enabled: false,
            order_emails: true,
            language: new.language.code().to_owned(),
            created_at: now,
            updated_at: now,
            operator_role: None,
            locked_at: None,
        };
        for _ in 0..5 {
            match self.store.insert_user(&user).await {
                Ok(()) => return Ok(user),
                Err(StoreError::Conflict) => {
                    if self.store.find_user_by_email(&user.email).await?.is_some() {
                        return Err(AccountError::EmailTaken);
                    }
                    user.referral_code = new_referral_code();
                }
                Err(other) => return Err(other.into()),
            }
        }
        Err(AccountError::Internal("no free referral code".into()))
    }

    #[tracing::instrument(skip_all)]
    pub async fn login(
        &self,
        email: &str,
        password: &str,
        remember: bool,
        client: &ClientInfo,
        now: i64,
    ) -> Result<LoginOutcome, AccountError> {
        if email.trim().is_empty() {
            return Err(invalid("Email is required"));
        }
        // One client's flood waits for no hashing turn: the others' sign-ins keep theirs.
        let _in_flight = self
            .signing_in
            .enter(&client.throttle_key, SIGN_INS_PER_CLIENT)
            .ok_or(AccountError::Busy)?;
        let email = account::sign_in_key(email, self.settings.email_idn);
        let keys = [
            format!("login:{email}"),
            format!("login-ip:{}", client.throttle_key),
        ];
        self.check_throttles(&keys, now).await?;
        let user = self.store.find_user_by_email(&email).await?;
        let hash = user
            .as_ref()
            .and_then(|u| u.password_hash.clone())
            .unwrap_or_else(|| self.dummy_hash.clone());
        let matches = verify_password(hash, password.to_owned()).await?;
        let Some(user) = user.filter(|u| matches && u.password_hash.is_some()) else {
            self.record_failures(&keys, now).await?;
            return Err(AccountError::InvalidCredentials);
        };
        self.store.clear_throttle(&keys[0]).await?;
        self.signed_in_or_challenged(user, remember, client, now)
            .await
    }

    /// A session, or — when the account has 2FA on — the challenge of the code step (the same
    /// for every way in: password or provider).
    async fn signed_in_or_challenged(
        &self,
        user: UserRecord,
        remember: bool,
        client: &ClientInfo,
        now: i64,
    ) -> Result<LoginOutcome, AccountError> {
        if !user.totp_enabled {
            return Ok(LoginOutcome::SignedIn(Box::new(
                self.issue_session(user, remember, client, now, false)
                    .await?,
            )));
        }
        let challenge = new_token();
        self.store
            .insert_token(&UserToken {
                token_hash: token_hash(&challenge),
                user_id: user.id.clone(),
                purpose: PURPOSE_CHALLENGE.into(),
                detail: Some(if remember { "remember" } else { "" }.into()),
                expires_at: now + CHALLENGE_SECONDS,
                used_at: None,
                created_at: now,
            })
            .await?;
        Ok(LoginOutcome::SecondFactor {
            user_id: user.id,
            email: user.email,
            challenge,
        })
    }

    /// The code step of sign-in: the challenge of the password step plus a TOTP or recovery
    /// code.
    #[tracing::instrument(skip_all)]
    pub async fn login_second_factor(
        &self,
        email: &str,
        challenge: Option<&str>,
        code: &str,
        client: &ClientInfo,
        now: i64,
    ) -> Result<IssuedSession, AccountError> {
        let email = account::sign_in_key(email, self.settings.email_idn);
        let user = self
            .store
            .find_user_by_email(&email)
            .await?
            .filter(|u| u.totp_enabled)
            .ok_or(AccountError::ChallengeExpired)?;
        let challenge_hash = challenge.map(token_hash).unwrap_or_default();
        let pending = self
            .store
            .find_token(&challenge_hash, PURPOSE_CHALLENGE)
            .await?
            .filter(|t| t.user_id == user.id && t.used_at.is_none() && t.expires_at > now)
            .ok_or(AccountError::ChallengeExpired)?;
        let keys = [
            format!("2fa:{}", user.id),
            format!("2fa-ip:{}", client.throttle_key),
        ];
        self.check_throttles(&keys, now).await?;
        if !self.accept_second_factor(&user, code, now).await? {
            self.record_failures(&keys, now).await?;
            return Err(AccountError::InvalidCode);
        }
        match self
            .store
            .use_token(&challenge_hash, PURPOSE_CHALLENGE, now)
            .await?
        {
            TokenUse::Used(_) => {}
            _ => return Err(AccountError::ChallengeExpired),
        }
        self.store.clear_throttle(&keys[0]).await?;
        let remember = pending.detail.as_deref() == Some("remember");
        // The code was just proved: an operator's console opens without asking for another.
        self.issue_session(user, remember, client, now, true).await
    }

    /// A TOTP code (each time step once) or an unused recovery code.
    async fn accept_second_factor(
        &self,
        user: &UserRecord,
        code: &str,
        now: i64,
    ) -> Result<bool, AccountError> {
        let code = code.trim();
        let Some(secret) = user.totp_secret.as_deref() else {
            return Ok(false);
        };
        if account::is_totp_code(code) {
            let totp = totp_for(secret, &self.settings.site_name, &user.email)?;
            return Ok(
                match matching_totp_step(code, now, |step| {
                    totp.generate((step * TOTP_STEP_SECONDS) as u64)
                }) {
                    Some(step) => self.store.claim_totp_step(&user.id, step).await?,
                    None => false,
                },
            );
        }
        let normalized = normalize_recovery_code(code);
        if normalized.is_empty() || normalized.len() > 32 {
            return Ok(false);
        }
        Ok(self
            .store
            .use_recovery_code(&user.id, &token_hash(&normalized), now)
            .await?)
    }

    async fn issue_session(
        &self,
        user: UserRecord,
        remember: bool,
        client: &ClientInfo,
        now: i64,
        second_factor: bool,
    ) -> Result<IssuedSession, AccountError> {
        // Every sign-in comes through here: a locked account opens no session.
        if user.locked_at.is_some() {
            return Err(AccountError::Locked);
        }
        let token = new_token();
        let lifetime = if remember {
            REMEMBERED_SESSION_SECONDS
        } else {
            SESSION_SECONDS
        };
        let session = SessionRecord {
            token_hash: token_hash(&token),
            id: uuid::Uuid::new_v4().to_string(),
            user_id: user.id.clone(),
            created_at: now,
            expires_at: now + lifetime,
            last_seen_at: now,
            user_agent: client.user_agent.chars().take(255).collect(),
            ip: client.ip.clone(),
            console_seen_at: second_factor.then_some(now),
        };
        self.store.insert_session(&session).await?;
        Ok(IssuedSession {
            token,
            session,
            user,
        })
    }

    /// The signed-in user and session behind a token, if the session is alive.
    pub async fn authenticate(
        &self,
        token: &str,
        now: i64,
    ) -> Result<Option<(UserRecord, SessionRecord)>, AccountError> {
        if token.is_empty() || token.len() > 128 {
            return Ok(None);
        }
        let Some(session) = self.store.touch_session(&token_hash(token), now).await? else {
            return Ok(None);
        };
        let user = self.store.find_user(&session.user_id).await?;
        // A session that outlived a lock (made just before it) is no session.
        let user = user.filter(|user| user.locked_at.is_none());
        Ok(user.map(|user| (user, session)))
    }

    pub async fn logout(&self, session: &SessionRecord) -> Result<(), AccountError> {
        Ok(self.store.delete_session(&session.token_hash).await?)
    }

    // ---- e-mail verification ---------------------------------------------------------------

    pub async fn request_verification(
        &self,
        user: &UserRecord,
        now: i64,
    ) -> Result<(), AccountError> {
        if user.email_verified_at.is_some() {
            return Err(AccountError::Conflict("Your email is already verified"));
        }
        self.count_mail(&format!("verify-mail:{}", user.id), now)
            .await?;
        self.send_verification_mail(user, now).await
    }

    async fn send_verification_mail(
        &self,
        user: &UserRecord,
        now: i64,
    ) -> Result<(), AccountError> {
        let token = self
            .issue_link(user, PURPOSE_VERIFY, VERIFY_LINK_SECONDS, now)
            .await?;
        let link = format!("{}/verify-email?token={token}", self.base_url());
        let mail = templates::verify_email(user.mail_language(), &self.settings.site_name, &link);
        self.mailer
            .enqueue(&user.email, &mail.subject, &mail.body, now)
            .await?;
        Ok(())
    }

    /// Marks the e-mail verified; answers the verified address.
    pub async fn verify_email(&self, token: &str, now: i64) -> Result<String, AccountError> {
        let used = self
            .use_link(token, PURPOSE_VERIFY, now)
            .await
            .map_err(|e| match e {
                AccountError::LinkExpired(_) => AccountError::LinkExpired(
                    "This verification link has expired. Request a new one from your profile.",
                ),
                AccountError::LinkInvalid(_) => AccountError::LinkInvalid(
                    "This verification link is invalid or was already used.",
                ),
                other => other,
            })?;
        let mut user =
            self.store
                .find_user(&used.user_id)
                .await?
                .ok_or(AccountError::LinkInvalid(
                    "This verification link is invalid or was already used.",
                ))?;
        if used.detail.as_deref() != Some(user.email.as_str()) {
            return Err(AccountError::LinkInvalid(
                "This verification link is invalid or was already used.",
            ));
        }
        if user.email_verified_at.is_none() {
            user.email_verified_at = Some(now);
            user.updated_at = now;
            self.store
                .change_user(&user.id, UserChange::EmailVerified, now)
                .await?;
        }
        Ok(user.email)
    }

    // ---- passwords -----------------------------------------------------------------------

    /// Sends a reset link if the address belongs to an account. The answer is the same either
    /// way, so the form never tells whether an address is registered.
    pub async fn forgot_password(
        &self,
        email: &str,
        client: &ClientInfo,
        now: i64,
    ) -> Result<(), AccountError> {
        let email = Email::parse(email, self.settings.email_idn)
            .map_err(|_| invalid("Please enter a valid email address"))?;
        self.count_mail(&format!("reset-mail-ip:{}", client.throttle_key), now)
            .await?;
        self.count_mail(&format!("reset-mail:{}", email.as_str()), now)
            .await?;
        if let Some(user) = self.store.find_user_by_email(email.as_str()).await? {
            let token = self
                .issue_link(&user, PURPOSE_RESET, RESET_LINK_SECONDS, now)
                .await?;
            let link = format!("{}/reset-password?token={token}", self.base_url());
            let mail =
                templates::reset_password(user.mail_language(), &self.settings.site_name, &link);
            self.mailer
                .enqueue(&user.email, &mail.subject, &mail.body, now)
                .await?;
        }
        Ok(())
    }

    /// Whether a reset link can be used, without using it (the reset page's first state).
    pub async fn check_reset_link(&self, token: &str, now: i64) -> Result<(), AccountError> {
        let found = if token.is_empty() || token.len() > 128 {
            None
        } else {
            self.store
                .find_token(&token_hash(token), PURPOSE_RESET)
                .await?
        };
        match found {
            Some(t) if t.used_at.is_none() && t.expires_at > now => Ok(()),
            Some(t) if t.used_at.is_none() => Err(AccountError::LinkExpired("Reset token expired")),
            _ => Err(AccountError::LinkInvalid(
                "Invalid or already used reset link",
            )),
        }
    }

    /// Sets a new password from a reset link and signs the user out everywhere.
    pub async fn reset_password(
        &self,
        token: &str,
        password: &str,
        confirm_password: &str,
        now: i64,
    ) -> Result<(), AccountError> {
        check_new_password(password, confirm_password).map_err(invalid)?;
        let used = self.use_link(token, PURPOSE_RESET, now).await?;
        let mut user =
            self.store
                .find_user(&used.user_id)
                .await?
                .ok_or(AccountError::LinkInvalid(
                    "Invalid or already used reset link",
                ))?;
        let hash = hash_password(password.to_owned()).await?;
        // Receiving the link proves the address.
        self.store
            .change_user(&user.id, UserChange::ResetPassword { hash: &hash }, now)
            .await?;
        user.password_hash = Some(hash);
        user.email_verified_at.get_or_insert(now);
        user.updated_at = now;
        self.store.delete_sessions_of(&user.id, None).await?;
        self.store
            .revoke_tokens(&user.id, PURPOSE_RESET, now)
            .await?;
        self.store
            .clear_throttle(&format!("login:{}", user.email))
            .await?;
        self.notify_password_changed(&user, now).await
    }

    /// Changes the password of a signed-in user; every other session ends.
    pub async fn change_password(
        &self,
        user: &UserRecord,
        session: &SessionRecord,
        current: &str,
        password: &str,
        confirm_password: &str,
        now: i64,
    ) -> Result<(), AccountError> {
        self.check_sensitive_change(user, session, current, now)
            .await?;
        check_new_password(password, confirm_password).map_err(invalid)?;
        let hash = hash_password(password.to_owned()).await?;
        let changed = self
            .store
            .change_user(
                &user.id,
                UserChange::ChangePassword {
                    hash: &hash,
                    current: user.password_hash.as_deref(),
                    session: &session.token_hash,
                },
                now,
            )
            .await?;
        if !changed {
            return Err(AccountError::Conflict(
                "Your password or session changed meanwhile; sign in again",
            ));
        }
        let mut user = user.clone();
        user.password_hash = Some(hash);
        user.updated_at = now;
        self.store
            .delete_sessions_of(&user.id, Some(&session.token_hash))
            .await?;
        self.store
            .revoke_tokens(&user.id, PURPOSE_RESET, now)
            .await?;
        self.notify_password_changed(&user, now).await
    }

    /// Proves the signed-in user is at the keyboard before a sensitive change: the password,
    /// or for an account without one a sign-in through the provider a moment ago.
    async fn check_sensitive_change(
        &self,
        user: &UserRecord,
        session: &SessionRecord,
        password: &str,
        now: i64,
    ) -> Result<(), AccountError> {
        match user.password_hash.clone() {
            Some(hash) => self.check_password(user, hash, password, now).await,
            None if now - session.created_at <= FRESH_SIGN_IN_SECONDS => Ok(()),
            None => Err(AccountError::FreshSignInRequired),
        }
    }

    /// Checks a signed-in user's password for a sensitive change, throttled like sign-in.
    async fn check_password(
        &self,
        user: &UserRecord,
        hash: String,
        password: &str,
        now: i64,
    ) -> Result<(), AccountError> {
        let keys = [format!("login:{}", user.email)];
        self.check_throttles(&keys, now).await?;
        if !verify_password(hash, password.to_owned()).await? {
            self.record_failures(&keys, now).await?;
            return Err(AccountError::WrongPassword);
        }
        Ok(())
    }

    async fn notify_password_changed(
        &self,
        user: &UserRecord,
        now: i64,
    ) -> Result<(), AccountError> {
        let mail = templates::password_changed(
            user.mail_language(),
            &self.settings.site_name,
            &self.settings.support_email,
        );
        self.mailer
            .enqueue(&user.email, &mail.subject, &mail.body, now)
            .await?;
        Ok(())
    }

    // ---- two-factor authentication ---------------------------------------------------------

    /// Draws a new secret for the user to scan; 2FA is on only after `confirm_totp`.
    pub async fn begin_totp(&self, user: &UserRecord, now: i64) -> Result<TotpSetup, AccountError> {
        if user.totp_enabled {
            return Err(AccountError::Conflict(
                "Two-factor authentication is already enabled",
            ));
        }
        let mut bytes = [0u8; 20];
        rand::rng().fill_bytes(&mut bytes);
        let secret = data_encoding::BASE32_NOPAD.encode(&bytes);
        let totp = totp_for(&secret, &self.settings.site_name, &user.email)?;
        self.store
            .change_user(&user.id, UserChange::TotpSecret(&secret), now)
            .await?;
        Ok(TotpSetup {
            secret,
            otpauth_uri: totp.get_url(),
        })
    }

    /// Turns 2FA on with a code from the app and ends every other session (one that a thief
    /// holds would otherwise outlive the new protection); answers the recovery codes (shown
    /// once).
    pub async fn confirm_totp(
        &self,
        user: &UserRecord,
        session: &SessionRecord,
        code: &str,
        now: i64,
    ) -> Result<Vec<String>, AccountError> {
        if user.totp_enabled {
            return Err(AccountError::Conflict(
                "Two-factor authentication is already enabled",
            ));
        }
        let secret = user
            .totp_secret
            .as_deref()
            .ok_or(AccountError::Conflict("Start the two-factor set-up first"))?;
        let keys = [format!("2fa:{}", user.id)];
        self.check_throttles(&keys, now).await?;
        let totp = totp_for(secret, &self.settings.site_name, &user.email)?;
        let step = matching_totp_step(code.trim(), now, |step| {
            totp.generate((step * TOTP_STEP_SECONDS) as u64)
        });
        let accepted = match step {
            Some(step) => self.store.claim_totp_step(&user.id, step).await?,
            None => false,
        };
        if !accepted {
            self.record_failures(&keys, now).await?;
            return Err(AccountError::InvalidCode);
        }
        self.store
            .change_user(&user.id, UserChange::TotpOn, now)
            .await?;
        self.store
            .delete_sessions_of(&user.id, Some(&session.token_hash))
            .await?;
        self.new_recovery_codes(user).await
    }

    async fn new_recovery_codes(&self, user: &UserRecord) -> Result<Vec<String>, AccountError> {
        let codes: Vec<String> = (0..RECOVERY_CODES).map(|_| new_recovery_code()).collect();
        let hashes: Vec<String> = codes
            .iter()
            .map(|c| token_hash(&normalize_recovery_code(c)))
            .collect();
        self.store.replace_recovery_codes(&user.id, &hashes).await?;
        Ok(codes)
    }

    /// Turns 2FA off: needs the password (when the account has one) and a current code.
    pub async fn disable_totp(
        &self,
        user: &UserRecord,
        password: &str,
        code: &str,
        now: i64,
    ) -> Result<(), AccountError> {
        if !user.totp_enabled {
            return Err(AccountError::Conflict(
                "Two-factor authentication is not enabled",
            ));
        }
        if let Some(hash) = user.password_hash.clone() {
            self.check_password(user, hash, password, now).await?;
        }
        let keys = [format!("2fa:{}", user.id)];
        self.check_throttles(&keys, now).await?;
        if !self.accept_second_factor(user, code, now).await? {
            self.record_failures(&keys, now).await?;
            return Err(AccountError::InvalidCode);
        }
        self.store
            .change_user(&user.id, UserChange::TotpOff, now)
            .await?;
        self.store.replace_recovery_codes(&user.id, &[]).await?;
        Ok(())
    }

    /// Opens the back office for this session with a fresh second factor (a TOTP code of a
    /// step not used before, or a recovery code); the console locks again after
    /// `FERRY_CONSOLE_IDLE_SECONDS` without use. Wrong codes count toward the 2FA pause.
    pub async fn unlock_console(
        &self,
        user: &UserRecord,
        session: &SessionRecord,
        code: &str,
        now: i64,
    ) -> Result<(), AccountError> {
        let _one = self
            .unlocking
            .enter(&user.id, 1)
            .ok_or(AccountError::Busy)?;
        let keys = [format!("2fa:{}", user.id)];
        self.check_throttles(&keys, now).await?;
        if !self.accept_second_factor(user, code, now).await? {
            self.record_failures(&keys, now).await?;
            return Err(AccountError::InvalidCode);
        }
        self.store.clear_throttle(&keys[0]).await?;
        self.store
            .set_console_seen(&session.token_hash, Some(now))
            .await?;
        Ok(())
    }

    pub async fn recovery_codes_left(&self, user: &UserRecord) -> Result<i64, AccountError> {
        Ok(self.store.unused_recovery_codes(&user.id).await?)
    }

    // ---- profile ---------------------------------------------------------------------------

    pub async fn sessions(
        &self,
        user: &UserRecord,
        now: i64,
    ) -> Result<Vec<SessionRecord>, AccountError> {
        Ok(self.store.sessions_of(&user.id, now).await?)
    }

    pub async fn revoke_session(&self, user: &UserRecord, id: &str) -> Result<(), AccountError> {
        if self.store.delete_session_by_id(&user.id, id).await? {
            Ok(())
        } else {
            Err(AccountError::NotFound)
        }
    }

    pub async fn update_profile(
        &self,
        user: &UserRecord,
        full_name: Option<&str>,
        order_emails: Option<bool>,
        language: Option<&str>,
        now: i64,
    ) -> Result<UserRecord, AccountError> {
        let mut user = user.clone();
        if let Some(code) = language {
            let language = crate::domain::language::Language::parse(code)
                .ok_or_else(|| AccountError::Invalid("Unsupported language".into()))?;
            user.language = language.code().to_owned();
        }
        if let Some(name) = full_name {
            user.full_name = account::parse_full_name(name).map_err(invalid)?;
        }
        if let Some(flag) = order_emails {
            user.order_emails = flag;
        }
        user.updated_at = now;
        self.store
            .change_user(
                &user.id,
                UserChange::Profile {
                    full_name: &user.full_name,
                    order_emails: user.order_emails,
                    language: &user.language,
                },
                now,
            )
            .await?;
        Ok(user)
    }

    /// Deletes the account after checking the password (if it has one). Orders stay with the
    /// exchange, detached from the account.
    pub async fn delete_account(
        &self,
        user: &UserRecord,
        session: &SessionRecord,
        password: &str,
        now: i64,
    ) -> Result<(), AccountError> {
        self.check_sensitive_change(user, session, password, now)
            .await?;
        // An owner takes the role away first (and never the last owner's): the back office is
        // never left without one, and the change is in its log.
        if user.operator_role.is_some() {
            return Err(AccountError::Conflict(
                "An operator's account is deleted once an owner has taken its role away",
            ));
        }
        Ok(self.store.delete_user(&user.id).await?)
    }

    // ---- social sign-in hand-off -------------------------------------------------------------

    /// Signs in (or up) the owner of a verified social identity and answers a short-lived
    /// one-time code that only the browser that began the flow (`browser_hash`) may exchange
    /// for a session.
    pub async fn social_sign_in(
        &self,
        provider: &str,
        subject: &str,
        email: &str,
        name: Option<&str>,
        browser_hash: &str,
        now: i64,
    ) -> Result<String, AccountError> {
        let user = match self.store.find_identity(provider, subject).await? {
            Some(user_id) => self
                .store
                .find_user(&user_id)
                .await?
                .ok_or(AccountError::NotFound)?,
            None => {
                let email = Email::parse(email, self.settings.email_idn).map_err(invalid)?;
                let user = match self.store.find_user_by_email(email.as_str()).await? {
                    Some(user) => self.claim_for_provider_owner(user, now).await?,
                    None => {
                        let full_name = name
                            .and_then(|n| account::parse_full_name(n).ok())
                            .unwrap_or_else(|| account::default_full_name(&email));
                        self.insert_user(
                            NewAccount {
                                email,
                                full_name,
                                password_hash: None,
                                referred_by: None,
                                email_verified_at: Some(now),
                                language: crate::domain::language::Language::En,
                            },
                            now,
                        )
                        .await?
                    }
                };
                self.store
                    .insert_identity(provider, subject, &user.id, now)
                    .await?;
                user
            }
        };
        let code = new_token();
        self.store
            .insert_token(&UserToken {
                token_hash: token_hash(&code),
                user_id: user.id,
                purpose: PURPOSE_HANDOFF.into(),
                detail: Some(browser_hash.to_owned()),
                expires_at: now + HANDOFF_SECONDS,
                used_at: None,
                created_at: now,
            })
            .await?;
        Ok(code)
    }

    /// An existing account with the provider-verified address, before its identity is linked.
    /// If the account never proved the address, whoever made it may not be its owner (an
    /// attacker can register someone else's address and wait): what they set up — password,
    /// sessions, 2FA, recovery codes, referrer, pending links — is wiped, and the provider's
    /// owner takes a clean account.
    async fn claim_for_provider_owner(
        &self,
        mut user: UserRecord,
        now: i64,
    ) -> Result<UserRecord, AccountError> {
        if user.email_verified_at.is_some() {
            return Ok(user);
        }
        if self.store.claim_unverified_account(&user.id, now).await? {
            tracing::warn!(user.id = %user.id, "an unverified account's address was proven by a provider: its unverified set-up was wiped");
        }
        // Read again: what the account is now, whoever changed it last.
        user = self
            .store
            .find_user(&user.id)
            .await?
            .ok_or(AccountError::NotFound)?;
        Ok(user)
    }

    /// Exchanges a social sign-in hand-off code for a session (remembered: the user chose a
    /// provider they are signed in to) — only in the browser that began the flow, and only
    /// past the code step when the account has 2FA on.
    pub async fn redeem_handoff(
        &self,
        code: &str,
        browser: Option<&str>,
        client: &ClientInfo,
        now: i64,
    ) -> Result<LoginOutcome, AccountError> {
        let refused = || AccountError::LinkInvalid("The sign-in link is invalid or expired");
        let used = self
            .use_link(code, PURPOSE_HANDOFF, now)
            .await
            .map_err(|_| refused())?;
        if !crate::services::oauth::same_browser(browser, used.detail.as_deref().unwrap_or("")) {
            return Err(refused());
        }
        let user = self
            .store
            .find_user(&used.user_id)
            .await?
            .ok_or(AccountError::NotFound)?;
        self.signed_in_or_challenged(user, true, client, now).await
    }

    // ---- helpers -----------------------------------------------------------------------------

    fn base_url(&self) -> &str {
        self.settings.public_url.trim_end_matches('/')
    }

    async fn issue_link(
        &self,
        user: &UserRecord,
        purpose: &str,
        lifetime: i64,
        now: i64,
    ) -> Result<String, AccountError> {
        let token = new_token();
        self.store
            .insert_token(&UserToken {
                token_hash: token_hash(&token),
                user_id: user.id.clone(),
                purpose: purpose.into(),
                detail: Some(user.email.clone()),
                expires_at: now + lifetime,
                used_at: None,
                created_at: now,
            })
            .await?;
        Ok(token)
    }

    async fn use_link(
        &self,
        token: &str,
        purpose: &str,
        now: i64,
    ) -> Result<UserToken, AccountError> {
        if token.is_empty() || token.len() > 128 {
            return Err(AccountError::LinkInvalid(
                "Invalid or already used reset link",
            ));
        }
        match self
            .store
            .use_token(&token_hash(token), purpose, now)
            .await?
        {
            TokenUse::Used(token) => Ok(token),
            TokenUse::Expired => Err(AccountError::LinkExpired("Reset token expired")),
            TokenUse::Invalid => Err(AccountError::LinkInvalid(
                "Invalid or already used reset link",
            )),
        }
    }

    async fn check_throttles(&self, keys: &[String], now: i64) -> Result<(), AccountError> {
        for (index, key) in keys.iter().enumerate() {
            let limit = self.limit_for(index);
            if let Some(throttle) = self.store.throttle(key).await?
                && throttle.failures >= limit
                && throttle.window_ends_at > now
            {
                return Err(too_many(throttle.window_ends_at - now));
            }
        }
        Ok(())
    }

    /// The first key is the account's; later ones (client addresses) allow more failures.
    fn limit_for(&self, index: usize) -> i64 {
        if index == 0 {
            self.settings.max_failures
        } else {
            self.settings.max_failures * ADDRESS_FACTOR
        }
    }

    async fn record_failures(&self, keys: &[String], now: i64) -> Result<(), AccountError> {
        for key in keys {
            self.store
                .record_failure(key, now, now + self.settings.pause_seconds)
                .await?;
        }
        Ok(())
    }

    /// Counts a mail request against an hourly allowance.
    async fn count_mail(&self, key: &str, now: i64) -> Result<(), AccountError> {
        take_hourly(self.store.as_ref(), key, MAILS_PER_HOUR, now)
            .await
            .map_err(|e| match e {
                AllowanceError::UsedUp(seconds) => too_many(seconds),
                AllowanceError::Store(e) => AccountError::Store(e),
            })
    }
}

fn invalid(message: &str) -> AccountError {
    AccountError::Invalid(message.to_owned())
}

pub fn too_many(seconds: i64) -> AccountError {
    let seconds = seconds.max(1);
    AccountError::TooManyAttempts {
        minutes: (seconds + 59) / 60,
        retry_after: seconds,
    }
}

/// 256 random bits, URL-safe.
fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    data_encoding::BASE64URL_NOPAD.encode(&bytes)
}

/// Eight lower-case base32 characters (40 random bits).
fn new_referral_code() -> String {
    let mut bytes = [0u8; 5];
    rand::rng().fill_bytes(&mut bytes);
    data_encoding::BASE32_NOPAD
        .encode(&bytes)
        .to_ascii_lowercase()
}

/// `xxxx-xxxx-xxxx-xxxx`: 80 random bits in lower-case base32.
fn new_recovery_code() -> String {
    let mut bytes = [0u8; 10];
    rand::rng().fill_bytes(&mut bytes);
    let text = data_encoding::BASE32_NOPAD
        .encode(&bytes)
        .to_ascii_lowercase();
    text.as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join("-")
}

fn totp_for(secret: &str, issuer: &str, email: &str) -> Result<TOTP, AccountError> {
    let bytes = data_encoding::BASE32_NOPAD
        .decode(secret.as_bytes())
        .map_err(|e| AccountError::Internal(format!("stored TOTP secret: {e}")))?;
    // A colon would split the otpauth label; the issuer is the operator's site name.
    Ok(TOTP::new_unchecked(
        Algorithm::SHA1,
        TOTP_DIGITS,
        1,
        TOTP_STEP_SECONDS as u64,
        bytes,
        Some(issuer.replace(':', " ")),
        email.to_owned(),
    ))
}

fn hash_password_now(password: &str) -> Result<String, AccountError> {
    let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AccountError::Internal(format!("hashing: {e}")))
}

/// Password hashes computed at once, at most: one per core. Each takes 19 MiB for its run, so
/// a burst of sign-ins or sign-ups waits its turn instead of taking memory without bound (a
/// thousand concurrent attempts would otherwise ask for 19 GB).
/// Sign-ins one client (address, or IPv6 /64) may have in progress at once; more are refused at
/// once with "busy", so that one client cannot fill the queue for hashing turns that everyone's
/// sign-in waits in.
const SIGN_INS_PER_CLIENT: usize = 4;

/// How many of something each client has in progress.
#[derive(Default)]
struct InFlight(std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>);

/// One client's place, given back when dropped.
struct InFlightPlace {
    counts: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<String, usize>>>,
    key: String,
}

impl InFlight {
    /// A place for `key`, unless it has `limit` already.
    fn enter(&self, key: &str, limit: usize) -> Option<InFlightPlace> {
        let mut counts = self.0.lock().expect("in-flight counts");
        let count = counts.entry(key.to_owned()).or_insert(0);
        if *count >= limit {
            return None;
        }
        *count += 1;
        Some(InFlightPlace {
            counts: self.0.clone(),
            key: key.to_owned(),
        })
    }
}

impl Drop for InFlightPlace {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().expect("in-flight counts");
        if let Some(count) = counts.get_mut(&self.key) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

fn hashing_turns() -> &'static tokio::sync::Semaphore {
    static TURNS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    TURNS.get_or_init(|| {
        tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    })
}

/// How long a password waits for a hashing turn before the answer is "busy, try again": a flood
/// of attempts then delays honest sign-ins by seconds, not until the request times out.
const HASHING_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

async fn hashing_turn() -> Result<tokio::sync::SemaphorePermit<'static>, AccountError> {
    match tokio::time::timeout(HASHING_WAIT, hashing_turns().acquire()).await {
        Ok(Ok(turn)) => Ok(turn),
        Ok(Err(closed)) => Err(AccountError::Internal(format!("hashing turn: {closed}"))),
        Err(_) => Err(AccountError::Busy),
    }
}

/// Argon2id with the crate's defaults (19 MiB, 2 passes), off the async threads.
async fn hash_password(password: String) -> Result<String, AccountError> {
    let turn = hashing_turn().await?;
    // The turn goes with the work: a caller that gives up does not free it early.
    tokio::task::spawn_blocking(move || {
        let _turn = turn;
        hash_password_now(&password)
    })
    .await
    .map_err(|e| AccountError::Internal(format!("hashing task: {e}")))?
}

async fn verify_password(hash: String, password: String) -> Result<bool, AccountError> {
    let turn = hashing_turn().await?;
    let checked = tokio::task::spawn_blocking(move || {
        let _turn = turn;
        PasswordHash::new(&hash).is_ok_and(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
    })
    .await
    .map_err(|e| AccountError::Internal(format!("hashing task: {e}")))?;
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_has_four_sign_ins_in_progress_at_most_and_others_are_not_counted() {
        let in_flight = InFlight::default();
        let places: Vec<_> = (0..SIGN_INS_PER_CLIENT)
            .map(|_| in_flight.enter("198.51.100.7", SIGN_INS_PER_CLIENT))
            .collect();
        assert!(places.iter().all(Option::is_some));
        assert!(
            in_flight
                .enter("198.51.100.7", SIGN_INS_PER_CLIENT)
                .is_none()
        );
        assert!(
            in_flight
                .enter("203.0.113.9", SIGN_INS_PER_CLIENT)
                .is_some()
        );
        drop(places);
        assert!(
            in_flight
                .enter("198.51.100.7", SIGN_INS_PER_CLIENT)
                .is_some()
        );
        assert!(
            in_flight.0.lock().unwrap().is_empty(),
            "nothing kept for idle clients"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_password_waits_for_a_hashing_turn_then_hears_busy() {
        let all = u32::try_from(hashing_turns().available_permits()).expect("a few turns");
        let taken = hashing_turns().acquire_many(all).await.expect("open");
        let waited = tokio::time::Instant::now();
        let answer = verify_password(String::new(), "Secret12".into()).await;
        assert!(matches!(answer, Err(AccountError::Busy)), "{answer:?}");
        assert_eq!(waited.elapsed(), HASHING_WAIT);
        drop(taken);
        // With a turn free, the same call runs (an unparsable hash matches nothing).
        assert!(
            !verify_password(String::new(), "Secret12".into())
                .await
                .expect("a turn")
        );
    }

    #[test]
    fn recovery_codes_are_four_groups_of_four() {
        let code = new_recovery_code();
        assert_eq!(code.len(), 19, "{code}");
        assert_eq!(code.split('-').count(), 4);
        assert_eq!(normalize_recovery_code(&code).len(), 16);
    }

    #[test]
    fn the_rfc6238_sha1_vector_matches() {
        // RFC 6238 appendix B: secret "12345678901234567890", T = 59 s → 94287082 (8 digits);
        // its last six digits are the 6-digit code.
        let secret = data_encoding::BASE32_NOPAD.encode(b"12345678901234567890");
        let totp = totp_for(&secret, "Ferry", "a@b.co").expect("totp");
        assert_eq!(totp.generate(59), "287082");
        assert_eq!(totp.generate(1111111109), "081804");
    }

    #[test]
    fn passwords_hash_with_argon2id_and_verify() {
        let hash = hash_password_now("Secret12").expect("hash");
        assert!(hash.starts_with("$argon2id$"));
        let parsed = PasswordHash::new(&hash).expect("phc");
        assert!(
            Argon2::default()
                .verify_password(b"Secret12", &parsed)
                .is_ok()
        );
        assert!(
            Argon2::default()
                .verify_password(b"Secret13", &parsed)
                .is_err()
        );
    }

    #[test]
    fn too_many_rounds_minutes_up() {
        match too_many(61) {
            AccountError::TooManyAttempts {
                minutes,
                retry_after,
            } => {
                assert_eq!((minutes, retry_after), (2, 61));
            }
            other => panic!("{other:?}"),
        }
    }
}
