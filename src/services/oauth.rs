//! Social sign-in with Google and GitHub: the OAuth 2.0 authorization-code flow with PKCE and
//! a single-use state kept in the database (so any replica can finish a flow another began).
//! Each flow is bound to the browser that began it: a random value goes to that browser in a
//! short-lived HttpOnly cookie and only its hash is stored with the state, so a callback (or
//! the hand-off code after it) carried to another browser signs nobody in — no login CSRF.
//!
//! Only a provider-verified e-mail address is used: it names the account, and it may link a
//! social identity to an existing account with that address.

use std::time::Duration;

use oauth2::basic::BasicClient;
use oauth2::{
    AuthUrl, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge,
    PkceCodeVerifier, RedirectUrl, Scope, TokenResponse, TokenUrl,
};
use serde::Deserialize;

use crate::domain::secret::constant_time_eq;
use crate::store::{DynStore, OAuthState, StoreError};

/// Time a visitor has to come back from the provider.
const STATE_SECONDS: i64 = 10 * 60;
const HTTP_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    Google,
    GitHub,
}

impl Provider {
    pub fn parse(name: &str) -> Option<Provider> {
        match name {
            "google" => Some(Provider::Google),
            "github" => Some(Provider::GitHub),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Provider::Google => "google",
            Provider::GitHub => "github",
        }
    }

    fn endpoints(self) -> Endpoints {
        match self {
            Provider::Google => Endpoints {
                authorize: "https://accounts.google.com/o/oauth2/v2/auth".into(),
                token: "https://oauth2.googleapis.com/token".into(),
                userinfo: "https://openidconnect.googleapis.com/v1/userinfo".into(),
            },
            Provider::GitHub => Endpoints {
                authorize: "https://github.com/login/oauth/authorize".into(),
                token: "https://github.com/login/oauth/access_token".into(),
                userinfo: "https://api.github.com/user".into(),
            },
        }
    }

    fn scopes(self) -> &'static [&'static str] {
        match self {
            Provider::Google => &["openid", "email", "profile"],
            Provider::GitHub => &["read:user", "user:email"],
        }
    }
}

#[derive(Debug, Clone)]
pub struct Endpoints {
    pub authorize: String,
    pub token: String,
    pub userinfo: String,
}

impl Endpoints {
    /// `authorize,token,userinfo`, for tests with a local provider.
    pub fn parse_override(value: &str) -> Option<Endpoints> {
        let mut parts = value.split(',').map(str::trim);
        let endpoints = Endpoints {
            authorize: parts.next()?.to_owned(),
            token: parts.next()?.to_owned(),
            userinfo: parts.next()?.to_owned(),
        };
        parts.next().is_none().then_some(endpoints)
    }
}

/// One provider's credentials as configured.
#[derive(Clone)]
pub struct ProviderConfig {
    pub client_id: String,
    pub client_secret: String,
}

#[derive(Debug, thiserror::Error)]
pub enum OAuthError {
    #[error("{0} sign-in is not configured")]
    NotConfigured(&'static str),
    #[error("the sign-in state is unknown, used, expired or from another browser")]
    BadState,
    #[error("the provider refused: {0}")]
    Provider(String),
    #[error("the provider gave no verified email address")]
    NoVerifiedEmail,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Who the provider says signed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub subject: String,
    pub email: String,
    pub name: Option<String>,
}

pub struct SocialSignIn {
    store: DynStore,
    public_url: String,
    google: Option<ProviderConfig>,
    github: Option<ProviderConfig>,
    endpoints_override: Option<Endpoints>,
    http: reqwest::Client,
}

impl SocialSignIn {
    pub fn new(
        store: DynStore,
        public_url: &str,
        google: Option<ProviderConfig>,
        github: Option<ProviderConfig>,
        endpoints_override: Option<Endpoints>,
    ) -> SocialSignIn {
        // No redirects: a token endpoint that redirects is a misconfiguration, not a hop to
        // follow with credentials.
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(HTTP_TIMEOUT)
            .user_agent("Ferry")
            .build()
            .unwrap_or_default();
        SocialSignIn {
            store,
            public_url: public_url.trim_end_matches('/').to_owned(),
            google,
            github,
            endpoints_override,
            http,
        }
    }

    fn config(&self, provider: Provider) -> Result<&ProviderConfig, OAuthError> {
        match provider {
            Provider::Google => self.google.as_ref(),
            Provider::GitHub => self.github.as_ref(),
        }
        .ok_or(OAuthError::NotConfigured(provider.name()))
    }

    fn endpoints(&self, provider: Provider) -> Endpoints {
        self.endpoints_override
            .clone()
            .unwrap_or_else(|| provider.endpoints())
    }

    pub fn redirect_uri(&self, provider: Provider) -> String {
        format!("{}/api/auth/{}/callback", self.public_url, provider.name())
    }

    /// The provider's authorization URL to send the browser to, and the value to bind the flow
    /// to that browser (its `ferry_oauth` cookie); the state, the PKCE verifier and the
    /// binding's hash are stored for the callback.
    pub async fn begin(
        &self,
        provider: Provider,
        now: i64,
    ) -> Result<(String, String), OAuthError> {
        let config = self.config(provider)?;
        let endpoints = self.endpoints(provider);
        let client = BasicClient::new(ClientId::new(config.client_id.clone()))
            .set_auth_uri(AuthUrl::from_url(url(&endpoints.authorize)?))
            .set_redirect_uri(RedirectUrl::from_url(url(&self.redirect_uri(provider))?));
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = client
            .authorize_url(CsrfToken::new_random)
            .set_pkce_challenge(challenge);
        for scope in provider.scopes() {
            request = request.add_scope(Scope::new((*scope).to_owned()));
        }
        let (authorize_url, state) = request.url();
        let binding = CsrfToken::new_random().secret().to_owned();
        self.store
            .insert_oauth_state(&OAuthState {
                state: state.secret().to_owned(),
                provider: provider.name().to_owned(),
                verifier: verifier.secret().to_owned(),
                browser_hash: browser_hash(&binding),
                expires_at: now + STATE_SECONDS,
            })
            .await?;
        Ok((authorize_url.to_string(), binding))
    }

    /// Finishes the flow: checks the state and that this is the browser that began it
    /// (`binding`, its cookie), exchanges the code, asks who signed in.
    pub async fn finish(
        &self,
        provider: Provider,
        code: &str,
        state: &str,
        binding: Option<&str>,
        now: i64,
    ) -> Result<Identity, OAuthError> {
        let config = self.config(provider)?;
        let stored = self
            .store
            .take_oauth_state(state, now)
            .await?
            .ok_or(OAuthError::BadState)?;
        if stored.provider != provider.name() || !same_browser(binding, &stored.browser_hash) {
            return Err(OAuthError::BadState);
        }
        let verifier = stored.verifier;
        let endpoints = self.endpoints(provider);
        let client = BasicClient::new(ClientId::new(config.client_id.clone()))
            .set_client_secret(ClientSecret::new(config.client_secret.clone()))
            .set_token_uri(TokenUrl::from_url(url(&endpoints.token)?))
            .set_redirect_uri(RedirectUrl::from_url(url(&self.redirect_uri(provider))?));
        let token = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .set_pkce_verifier(PkceCodeVerifier::new(verifier))
            .request_async(&self.http)
            .await
            .map_err(|e| OAuthError::Provider(format!("token exchange: {e}")))?;
        let access = token.access_token().secret();
        match provider {
            Provider::Google => self.google_identity(&endpoints.userinfo, access).await,
            Provider::GitHub => self.github_identity(&endpoints.userinfo, access).await,
        }
    }

    async fn get_json<T: for<'de> Deserialize<'de>>(
        &self,
        url: &str,
        access_token: &str,
    ) -> Result<T, OAuthError> {
        let response = self
            .http
            .get(url)
            .bearer_auth(access_token)
            .header("accept", "application/json")
            .send()
            .await
            .map_err(|e| OAuthError::Provider(format!("{url}: {e}")))?;
        if !response.status().is_success() {
            return Err(OAuthError::Provider(format!(
                "{url}: {}",
                response.status()
            )));
        }
        response
            .json()
            .await
            .map_err(|e| OAuthError::Provider(format!("{url}: {e}")))
    }

    async fn google_identity(&self, url: &str, access: &str) -> Result<Identity, OAuthError> {
        #[derive(Deserialize)]
        struct GoogleUser {
            sub: String,
            email: Option<String>,
            #[serde(default)]
            email_verified: bool,
            name: Option<String>,
        }
        let user: GoogleUser = self.get_json(url, access).await?;
        match user.email {
            Some(email) if user.email_verified => Ok(Identity {
                subject: user.sub,
                email,
                name: user.name,
            }),
            _ => Err(OAuthError::NoVerifiedEmail),
        }
    }

    async fn github_identity(&self, url: &str, access: &str) -> Result<Identity, OAuthError> {
        #[derive(Deserialize)]
        struct GitHubUser {
            id: i64,
            login: String,
            name: Option<String>,
        }
        #[derive(Deserialize)]
        struct GitHubEmail {
            email: String,
            #[serde(default)]
            primary: bool,
            #[serde(default)]
            verified: bool,
        }
        let user: GitHubUser = self.get_json(url, access).await?;
        // The profile's public e-mail may be unverified or absent; the e-mails list says.
        let emails: Vec<GitHubEmail> = self.get_json(&format!("{url}/emails"), access).await?;
        let email = emails
            .iter()
            .filter(|e| e.verified)
            .max_by_key(|e| e.primary)
            .map(|e| e.email.clone())
            .ok_or(OAuthError::NoVerifiedEmail)?;
        Ok(Identity {
            subject: user.id.to_string(),
            email,
            name: user.name.or(Some(user.login)),
        })
    }
}

/// What is stored of a browser binding.
pub fn browser_hash(binding: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(binding.as_bytes()))
}

/// Whether the browser's cookie (`binding`) is the one `stored_hash` was made from.
pub fn same_browser(binding: Option<&str>, stored_hash: &str) -> bool {
    binding.is_some_and(|b| {
        !stored_hash.is_empty()
            && constant_time_eq(browser_hash(b).as_bytes(), stored_hash.as_bytes())
    })
}

fn url(value: &str) -> Result<oauth2::url::Url, OAuthError> {
    oauth2::url::Url::parse(value).map_err(|e| OAuthError::Provider(format!("{value}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_overrides_need_exactly_three_urls() {
        let parsed = Endpoints::parse_override("http://a/authorize, http://a/token,http://a/user")
            .expect("three");
        assert_eq!(parsed.token, "http://a/token");
        assert!(Endpoints::parse_override("http://a,http://b").is_none());
        assert!(Endpoints::parse_override("a,b,c,d").is_none());
    }

    #[test]
    fn a_flow_is_bound_to_the_browser_that_began_it() {
        let hash = browser_hash("cookie-value");
        assert!(same_browser(Some("cookie-value"), &hash));
        assert!(!same_browser(Some("another"), &hash));
        assert!(!same_browser(None, &hash));
        assert!(
            !same_browser(Some(""), ""),
            "a state without a binding binds nothing"
        );
    }

    #[test]
    fn providers_are_named_in_paths() {
        assert_eq!(Provider::parse("github"), Some(Provider::GitHub));
        assert_eq!(Provider::parse("facebook"), None);
    }
}
