//! Text that came from a host or the storage library, made safe to print.
//!
//! An error message can quote a URL with credentials in it
//! (`AWS_ENDPOINT_URL=http://admin:pass@host`, a `?token=` query), and a
//! server's answer can echo the request it refused, `Authorization` header
//! and all, together with terminal escape sequences and any amount of body.
//! [`Secrets::redact`] takes out, in order: the user and password part of
//! every URL and its query, every credential the deploy was given (from the
//! environment), anything that looks like an `Authorization` value; then it
//! escapes control and bidi characters (as the build log does) and cuts the
//! text to [`MAX_CHARS`].

/// The WebDAV user and password a deploy sends (basic authentication).
pub const USER_ENV: &str = "MODELPAGES_DEPLOY_USER";
pub const PASSWORD_ENV: &str = "MODELPAGES_DEPLOY_PASSWORD";

/// Standard base64 with padding, as a basic-authentication header carries
/// `user:password`.
pub(crate) fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Environment variables whose values are secrets, whichever store is used.
const SECRET_ENVS: [&str; 5] =
    ["AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID", PASSWORD_ENV, "AWS_CONTAINER_AUTHORIZATION_TOKEN"];

/// Environment variables that name an endpoint, whose URL may carry a password.
const ENDPOINT_ENVS: [&str; 2] = ["AWS_ENDPOINT_URL", "AWS_ENDPOINT"];

/// The most characters of a message from elsewhere that are printed.
pub const MAX_CHARS: usize = 600;

const REDACTED: &str = "[redacted]";

/// Secrets shorter than this are replaced only where they stand as a whole
/// word: a two-letter password would otherwise blank out every word holding
/// those letters.
const SHORT: usize = 6;

/// Values that must never be printed.
#[derive(Debug, Default)]
pub struct Secrets(Vec<String>);

impl Secrets {
    pub fn new(values: impl IntoIterator<Item = String>) -> Secrets {
        let mut values: Vec<String> = values.into_iter().filter(|v| !v.is_empty()).collect();
        // The longest first, so a secret inside another goes with it.
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        values.dedup();
        Secrets(values)
    }

    /// The credentials in the environment: the AWS and WebDAV variables,
    /// the password in an endpoint's URL, and the basic-authentication
    /// header value made from the WebDAV user and password (`user:password`
    /// as sent, and in base64).
    pub fn from_env() -> Secrets {
        let env = |k: &str| std::env::var(k).ok();
        let mut values: Vec<String> = SECRET_ENVS.iter().filter_map(|k| env(k)).collect();
        for endpoint in ENDPOINT_ENVS.iter().filter_map(|k| env(k)) {
            if let Ok(url) = url::Url::parse(&endpoint) {
                values.extend(url.password().map(str::to_owned));
                values.extend(Some(url.username().to_owned()).filter(|u| !u.is_empty()));
            }
        }
        if let (Some(user), password) = (env(USER_ENV), env(PASSWORD_ENV)) {
            let pair = format!("{user}:{}", password.unwrap_or_default());
            values.push(base64(pair.as_bytes()));
            values.push(pair);
        }
        Secrets::new(values)
    }

    /// `text` safe to print: see the module's overview.
    pub fn redact(&self, text: &str) -> String {
        // URLs first: a secret replaced inside one would hide where it ends.
        let mut text = strip_urls(text);
        for secret in &self.0 {
            text = if secret.chars().count() >= SHORT { text.replace(secret.as_str(), REDACTED) } else { replace_word(&text, secret) };
        }
        // Control characters (escape sequences, newlines) and bidi controls
        // as escapes, as the build log shows names: a message is one line.
        cap(&modelpages_record::printable(&drop_authorization(&text)))
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` with `word` replaced where no letter, digit or `_` touches it.
fn replace_word(text: &str, word: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(word) {
        let before = rest[..at].chars().last().or_else(|| out.chars().last());
        let after = rest[at + word.len()..].chars().next();
        out.push_str(&rest[..at]);
        if before.is_some_and(is_word_char) || after.is_some_and(is_word_char) {
            out.push_str(word);
        } else {
            out.push_str(REDACTED);
        }
        rest = &rest[at + word.len()..];
    }
    out.push_str(rest);
    out
}

/// Where a URL quoted in text ends.
fn url_end(text: &str) -> usize {
    text.find(|c: char| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '`' | ')' | ','))
        .unwrap_or(text.len())
}

/// Every `scheme://user:password@host/path?query#fragment` in `text` as
/// `scheme://host/path?[redacted]`: no credentials, no query (tokens travel
/// there), no fragment.
fn strip_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        out.push_str(&rest[..at + 3]);
        let after = &rest[at + 3..];
        let end = url_end(after);
        let url = &after[..end];
        let authority_end = url.find(['/', '?', '#']).unwrap_or(url.len());
        let host = url[..authority_end].rsplit_once('@').map_or(&url[..authority_end], |(_, host)| host);
        out.push_str(host);
        let tail = &url[authority_end..];
        let (path, query) = match tail.find(['?', '#']) {
            Some(q) => (&tail[..q], true),
            None => (tail, false),
        };
        out.push_str(path);
        if query {
            out.push('?');
            out.push_str(REDACTED);
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// `text` without what follows `Authorization` up to the end of its line,
/// nor any `Basic`, `Bearer` or `Digest` credential.
fn drop_authorization(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let lower = text.to_ascii_lowercase();
    let mut i = 0;
    while i < text.len() {
        let here = &lower[i..];
        let keyword = ["authorization", "basic ", "bearer ", "digest "].into_iter().find(|k| here.starts_with(k));
        match keyword {
            Some("authorization") => {
                let name_end = i + "authorization".len();
                out.push_str(&text[i..name_end]);
                // A header or a field (`Authorization: ...`, `"authorization"="..."`):
                // its value goes, to the end of the line. The word in a sentence stays.
                let after = text[name_end..].trim_start_matches(['"', '\'', ' ', '\t']);
                if after.starts_with([':', '=']) {
                    let line_end = text[name_end..].find(['\n', '\r']).map_or(text.len(), |e| name_end + e);
                    out.push_str(": ");
                    out.push_str(REDACTED);
                    i = line_end;
                } else {
                    i = name_end;
                }
            }
            Some(scheme) => {
                let start = i + scheme.len();
                let token = text[start..].find(|c: char| !(c.is_ascii_alphanumeric() || "+/=._~-".contains(c))).map_or(text.len(), |e| start + e);
                out.push_str(&text[i..start]);
                if token - start >= 8 {
                    out.push_str(REDACTED);
                    i = token;
                } else {
                    i = start;
                }
            }
            None => {
                let c = text[i..].chars().next().expect("inside the text");
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

/// At most [`MAX_CHARS`] characters, saying how many more there were.
fn cap(text: &str) -> String {
    let count = text.chars().count();
    if count <= MAX_CHARS {
        return text.to_owned();
    }
    let kept: String = text.chars().take(MAX_CHARS).collect();
    format!("{kept}... ({} more characters not shown)", count - MAX_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_go_long_ones_anywhere_short_ones_as_words() {
        let secrets = Secrets::new(["s3cr3t-value".to_owned(), "pw".to_owned()]);
        assert_eq!(secrets.redact("auth s3cr3t-value failed"), "auth [redacted] failed");
        assert_eq!(secrets.redact("user deployer, password pw: denied"), "user deployer, password [redacted]: denied");
        assert_eq!(secrets.redact("upw pwned"), "upw pwned", "inside words it stays");
    }

    #[test]
    fn urls_lose_their_credentials_and_queries() {
        let secrets = Secrets::default();
        assert_eq!(
            secrets.redact("error sending request for url (http://admin:pass@127.0.0.1:1/site/.modelpages-site?token=abc#frag)"),
            "error sending request for url (http://127.0.0.1:1/site/.modelpages-site?[redacted])"
        );
        assert_eq!(secrets.redact("at https://h.example/a/b, then"), "at https://h.example/a/b, then");
        assert_eq!(secrets.redact("http://u@h/?x=1 and s3://b/p"), "http://h/?[redacted] and s3://b/p");
        assert_eq!(secrets.redact("GET http://admin:pw9@[::1]:9000/b?list-type=2 failed"), "GET http://[::1]:9000/b?[redacted] failed");
        // A secret that is also in the URL: the URL is cut first.
        let known = Secrets::new(["admin".to_owned(), "pw9".to_owned()]);
        assert_eq!(known.redact("HEAD http://admin:pw9@127.0.0.1:1/x: refused for admin"), "HEAD http://127.0.0.1:1/x: refused for [redacted]");
    }

    #[test]
    fn authorization_values_control_characters_and_length_are_tamed() {
        let secrets = Secrets::default();
        let echoed = "403 Forbidden\r\nAuthorization: Basic ZGVwbG95ZXI6cHc=\r\nHost: x\x1b[31m red";
        assert_eq!(secrets.redact(echoed), "403 Forbidden\\u{d}\\u{a}Authorization: [redacted]\\u{d}\\u{a}Host: x\\u{1b}[31m red");
        assert_eq!(secrets.redact("token Bearer eyJhbGciOiJIUzI1NiJ9.x"), "token Bearer [redacted]");
        assert_eq!(secrets.redact("basic idea"), "basic idea", "short words are not tokens");
        assert_eq!(secrets.redact("no authorization header sent"), "no authorization header sent");
        assert_eq!(secrets.redact(r#"{"authorization": "AWS4 x=y"} more"#), r#"{"authorization: [redacted]"#);
        assert_eq!(secrets.redact("a\u{202e}b"), "a\\u{202e}b");
        let long = "x".repeat(200_000);
        let shown = secrets.redact(&long);
        assert!(shown.len() < MAX_CHARS + 60 && shown.ends_with("(199400 more characters not shown)"), "{}", &shown[MAX_CHARS..]);
    }
}
