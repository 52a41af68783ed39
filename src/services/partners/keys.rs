//! API keys: creation (secret shown once), the request signature of the partner API, per-key
//! rate limits and usage, revocation and webhooks.
//!
//! A key's secret is `HMAC-SHA256(key secret, "api" ‖ id ‖ salt)`: the server recomputes it for
//! every request, and the database holds only the id and the salt. Without the server's key
//! secret (`FERRY_KEY_SECRET`, or the file `DATA_DIR/key-secret`) a database reader cannot sign
//! requests or webhooks.

use std::sync::Arc;

use hmac::{Hmac, Mac};
use rand::Rng;
use sha2::Sha256;

use super::public_net::is_public_host;
use crate::domain::secret::constant_time_eq;
use crate::limits::{Budget, RetryAfter, SharedCounter};
use crate::store::{ApiKeyRecord, DynStore, StoreError, UserRecord, WebhookDelivery};

const KEY_ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const KEY_LENGTH: usize = 32;
const NAME_LIMIT: usize = 64;
/// Active keys one account may hold.
pub const ACTIVE_KEY_LIMIT: usize = 10;
const WEBHOOK_URL_LIMIT: usize = 500;

/// What a key may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    /// Currencies and prices.
    Read,
    /// Also create and read orders, choose emergencies, set e-mails, get QR codes.
    Trade,
}

impl Permission {
    pub fn parse(raw: &str) -> Option<Permission> {
        match raw {
            "read" => Some(Permission::Read),
            "trade" => Some(Permission::Trade),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Permission::Read => "read",
            Permission::Trade => "trade",
        }
    }

    pub fn allows(self, needed: Permission) -> bool {
        self == Permission::Trade || needed == Permission::Read
    }
}

#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("{0}")]
    Invalid(String),
    #[error("Verify your e-mail address before creating API keys")]
    EmailNotVerified,
    #[error("You can have at most {ACTIVE_KEY_LIMIT} active API keys; revoke one first")]
    TooMany,
    #[error("API key not found")]
    NotFound,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a partner request was refused before it reached its method.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AuthError {
    #[error("Missing X-API-KEY header")]
    MissingKey,
    #[error("Invalid API key")]
    UnknownKey,
    #[error("Missing X-API-SIGN header")]
    MissingSignature,
    #[error("Invalid signature")]
    BadSignature,
}

/// A new key with the secrets shown to its owner once.
pub struct CreatedKey {
    pub key: ApiKeyRecord,
    pub secret: String,
    pub webhook_secret: String,
}

pub struct ApiKeys {
    store: DynStore,
    master: Vec<u8>,
    /// Each key's requests a minute (for every replica, with Redis).
    allowance: Budget<String>,
    /// Whether webhooks may point at loopback or private addresses (tests, closed networks).
    allow_private_webhooks: bool,
}

/// How many keys' allowances are remembered at most.
const MAX_KEYS: usize = 100_000;

impl ApiKeys {
    /// `master` is the server's key secret; `per_minute` the requests one key may make.
    pub fn new(
        store: DynStore,
        master: Vec<u8>,
        per_minute: u32,
        shared: Option<&Arc<SharedCounter>>,
        allow_private_webhooks: bool,
    ) -> ApiKeys {
        ApiKeys {
            store,
            master,
            allowance: Budget::per_minute(per_minute, MAX_KEYS).shared(shared, "partner-key"),
            allow_private_webhooks,
        }
    }

    fn derive(&self, label: &[u8], key: &ApiKeyRecord) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.master).expect("any key length");
        mac.update(label);
        mac.update(&[0]);
        mac.update(key.id.as_bytes());
        mac.update(&[0]);
        mac.update(key.salt.as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// The secret the partner signs requests with.
    pub fn secret_of(&self, key: &ApiKeyRecord) -> String {
        self.derive(b"api", key)
    }

    /// The secret webhooks to this key are signed with.
    pub fn webhook_secret_of(&self, key: &ApiKeyRecord) -> String {
        self.derive(b"webhook", key)
    }

    pub async fn create(
        &self,
        user: &UserRecord,
        name: &str,
        permission: &str,
        now: i64,
    ) -> Result<CreatedKey, KeyError> {
        if user.email_verified_at.is_none() {
            return Err(KeyError::EmailNotVerified);
        }
        let name = name.trim();
        if name.is_empty()
            || name.chars().count() > NAME_LIMIT
            || name.chars().any(char::is_control)
        {
            return Err(KeyError::Invalid(format!(
                "Give the key a name of 1 to {NAME_LIMIT} characters"
            )));
        }
        let permission = Permission::parse(permission)
            .ok_or_else(|| KeyError::Invalid("The permission must be read or trade".into()))?;
        let active = self
            .store
            .api_keys_of(&user.id)
            .await?
            .iter()
            .filter(|k| k.revoked_at.is_none())
            .count();
        if active >= ACTIVE_KEY_LIMIT {
            return Err(KeyError::TooMany);
        }
        let key = ApiKeyRecord {
            id: random_string(KEY_LENGTH),
            user_id: user.id.clone(),
            name: name.to_owned(),
            permission: permission.as_str().to_owned(),
            salt: hex::encode(rand::rng().random::<[u8; 16]>()),
            webhook_url: None,
            request_count: 0,
            last_used_at: None,
            created_at: now,
            revoked_at: None,
        };
        self.store.insert_api_key(&key).await?;
        tracing::info!(api_key = %key.id, permission = key.permission, "API key created");
        Ok(CreatedKey {
            secret: self.secret_of(&key),
            webhook_secret: self.webhook_secret_of(&key),
            key,
        })
    }

    pub async fn list(&self, user: &UserRecord) -> Result<Vec<ApiKeyRecord>, KeyError> {
        Ok(self.store.api_keys_of(&user.id).await?)
    }

    pub async fn revoke(&self, user: &UserRecord, id: &str, now: i64) -> Result<(), KeyError> {
        if self.store.revoke_api_key(&user.id, id, now).await? {
            tracing::info!(api_key = %id, "API key revoked");
            Ok(())
        } else {
            Err(KeyError::NotFound)
        }
    }

    /// Sets the webhook of a key (an `https://` or `http://` URL), or clears it with `None`.
    pub async fn set_webhook(
        &self,
        user: &UserRecord,
        id: &str,
        url: Option<&str>,
    ) -> Result<(), KeyError> {
        let url = match url.map(str::trim).filter(|u| !u.is_empty()) {
            Some(url) => Some(check_webhook_url(url, self.allow_private_webhooks)?),
            None => None,
        };
        if self
            .store
            .set_webhook_url(&user.id, id, url.as_deref())
            .await?
        {
            Ok(())
        } else {
            Err(KeyError::NotFound)
        }
    }

    /// The latest webhook deliveries of one of the user's keys.
    pub async fn deliveries(
        &self,
        user: &UserRecord,
        id: &str,
    ) -> Result<Vec<WebhookDelivery>, KeyError> {
        let key = self.store.find_api_key(id).await?;
        if key.is_none_or(|k| k.user_id != user.id) {
            return Err(KeyError::NotFound);
        }
        Ok(self.store.webhook_deliveries_of(id, 50).await?)
    }

    /// The active key named by `X-API-KEY` whose secret signed `body` as `X-API-SIGN` says.
    pub async fn authenticate(
        &self,
        key_id: Option<&str>,
        signature: Option<&str>,
        body: &[u8],
    ) -> Result<ApiKeyRecord, KeyAuthError> {
        let key_id = key_id
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .ok_or(AuthError::MissingKey)?;
        if key_id.len() > 128 {
            return Err(AuthError::UnknownKey.into());
        }
        let key = self
            .store
            .find_api_key(key_id)
            .await?
            .filter(|k| k.revoked_at.is_none())
            .ok_or(AuthError::UnknownKey)?;
        let signature = signature
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or(AuthError::MissingSignature)?;
        if !signature_matches(self.secret_of(&key).as_bytes(), body, signature) {
            return Err(AuthError::BadSignature.into());
        }
        Ok(key)
    }

    /// Takes one request from the key's allowance, or says how many seconds until one is free.
    pub async fn take_allowance(&self, key: &ApiKeyRecord) -> Result<(), u64> {
        self.allowance
            .take(&key.id)
            .await
            .map_err(RetryAfter::seconds)
    }

    /// Counts a request the key made successfully.
    pub async fn record_use(&self, key: &ApiKeyRecord, now: i64) -> Result<(), StoreError> {
        self.store.record_api_key_use(&key.id, now).await
    }
}

/// Either a refusal or a database failure while checking.
#[derive(Debug, thiserror::Error)]
pub enum KeyAuthError {
    #[error(transparent)]
    Refused(#[from] AuthError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Whether `signature` (hex, any case) is the HMAC-SHA256 of `body` under `secret`, compared
/// in constant time.
pub fn signature_matches(secret: &[u8], body: &[u8], signature: &str) -> bool {
    let Ok(given) = hex::decode(signature) else {
        return false;
    };
    constant_time_eq(&given, &sign(secret, body))
}

/// HMAC-SHA256 of `body` under `secret`.
pub fn sign(secret: &[u8], body: &[u8]) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("any key length");
    mac.update(body);
    mac.finalize().into_bytes().to_vec()
}

/// The webhook URL as it will be called (the `url` crate's normal form), if it may be: http or
/// https with a host and no credentials, and a public host unless `allow_private`.
fn check_webhook_url(url: &str, allow_private: bool) -> Result<String, KeyError> {
    let not_http = || KeyError::Invalid("The webhook must be an http:// or https:// URL".into());
    if url.len() > WEBHOOK_URL_LIMIT || url.contains(char::is_whitespace) {
        return Err(not_http());
    }
    let parsed = reqwest::Url::parse(url).map_err(|_| not_http())?;
    let Some(host) = parsed.host() else {
        return Err(not_http());
    };
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(not_http());
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(KeyError::Invalid(
            "The webhook URL must not contain credentials".into(),
        ));
    }
    if !allow_private && !is_public_host(&host) {
        return Err(KeyError::Invalid(
            "The webhook must be a public address, not a local or private one".into(),
        ));
    }
    Ok(parsed.into())
}

fn random_string(length: usize) -> String {
    let mut rng = rand::rng();
    (0..length)
        .map(|_| KEY_ALPHABET[rng.random_range(0..KEY_ALPHABET.len())] as char)
        .collect()
}

/// The server's key secret: `FERRY_KEY_SECRET` when set (required when replicas share one
/// database), else a random one kept in `DATA_DIR/key-secret`, made on first start.
pub fn load_master_key(
    configured: Option<&str>,
    data_dir: &std::path::Path,
) -> std::io::Result<Vec<u8>> {
    if let Some(secret) = configured.filter(|s| !s.trim().is_empty()) {
        return Ok(secret.trim().as_bytes().to_vec());
    }
    let path = data_dir.join("key-secret");
    match std::fs::read_to_string(&path) {
        Ok(existing) if !existing.trim().is_empty() => Ok(existing.trim().as_bytes().to_vec()),
        Ok(_) | Err(_) => {
            std::fs::create_dir_all(data_dir)?;
            let fresh = hex::encode(rand::rng().random::<[u8; 32]>());
            write_private(&path, &fresh)?;
            Ok(fresh.into_bytes())
        }
    }
}

fn write_private(path: &std::path::Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(mut file) => file.write_all(contents.as_bytes()),
        // Another process made it first: use theirs.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

pub type SharedKeys = Arc<ApiKeys>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permissions_nest() {
        assert!(Permission::Trade.allows(Permission::Read));
        assert!(Permission::Trade.allows(Permission::Trade));
        assert!(Permission::Read.allows(Permission::Read));
        assert!(!Permission::Read.allows(Permission::Trade));
        assert_eq!(Permission::parse("admin"), None);
    }

    #[test]
    fn signatures_match_only_the_exact_bytes_and_secret() {
        let body = br#"{"fromCcy": "BTC"}"#;
        let good = hex::encode(sign(b"secret", body));
        assert!(signature_matches(b"secret", body, &good));
        assert!(signature_matches(b"secret", body, &good.to_uppercase()));
        assert!(!signature_matches(
            b"secret",
            br#"{"fromCcy":"BTC"}"#,
            &good
        ));
        assert!(!signature_matches(b"other", body, &good));
        assert!(!signature_matches(b"secret", body, "zz"));
        assert!(!signature_matches(b"secret", body, &good[..62]));
    }

    #[test]
    fn webhook_urls_must_be_http_with_a_host_and_no_credentials() {
        assert!(check_webhook_url("https://partner.example/hook?x=1", false).is_ok());
        assert!(check_webhook_url("http://203.0.113.9.nip.io/hook", false).is_ok());
        assert!(check_webhook_url("http://127.0.0.1:9000/hook", true).is_ok());
        for private in [
            "http://127.0.0.1:9000/hook",
            "http://localhost/hook",
            "http://localhost./hook",
            "http://10.1.2.3/",
            "http://169.254.169.254/latest/meta-data",
            "http://[::1]/",
            "http://[fd00::1]/",
            "http://[64:ff9b::7f00:1]/",
            "http://[::127.0.0.1]/",
            "http://[::ffff:169.254.169.254]/",
            "http://192.0.0.1/",
            "http://2130706433/",
            "http://0x7f.1/",
            "http://127.1/",
            "http://metadata/",
        ] {
            assert!(check_webhook_url(private, false).is_err(), "{private}");
        }
        for bad in [
            "ftp://x.example/",
            "javascript:alert(1)",
            "https://",
            "https://user:pw@x.example/",
            "https://x.example/a b",
        ] {
            assert!(check_webhook_url(bad, true).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_webhook_url_is_kept_in_the_form_it_is_called_by() {
        assert_eq!(
            check_webhook_url("HTTPS://Partner.Example/hook", false).ok(),
            Some("https://partner.example/hook".into())
        );
        assert_eq!(
            check_webhook_url("http://2130706433:9000/hook", true).ok(),
            Some("http://127.0.0.1:9000/hook".into())
        );
    }

    #[test]
    fn the_master_key_is_made_once_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let first = load_master_key(None, dir.path()).unwrap();
        assert_eq!(first.len(), 64);
        assert_eq!(load_master_key(None, dir.path()).unwrap(), first);
        assert_eq!(
            load_master_key(Some("configured"), dir.path()).unwrap(),
            b"configured"
        );
    }
}
