//! The audit log as CSV (issue 22), for a spreadsheet or an auditor: every entry the filters
//! match, newest first, read from the store a page at a time while it is sent, so that a long
//! log never sits in memory whole.

use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use tracing::Instrument;

use super::queue::utc_time_text;
use super::{AdminCall, AuditQuery, Operator};
use crate::http::AppState;
use crate::http::error::ApiError;
use crate::http::extract::ApiQuery;
use crate::store::{AuditFilter, AuditRecord};

/// Entries read per page while the file is written.
const CSV_PAGE: i64 = 500;

/// With a byte-order mark: spreadsheets then read the file as UTF-8.
const HEADER: &str = "\u{feff}id,at_utc,at_unix,actor,actor_email,actor_role,action,subject_kind,\
    subject_id,reason,client_ip,user_agent,before,after\r\n";

/// `GET /api/admin/audit.csv`: the filters of `GET /api/admin/audit`, as a download.
pub(super) async fn audit_csv(
    State(state): State<AppState>,
    _: AdminCall<Operator>,
    ApiQuery(query): ApiQuery<AuditQuery>,
) -> Result<Response, ApiError> {
    let filter = AuditFilter {
        actor: query.actor,
        action: query.action,
        subject_kind: query.subject_kind,
        subject_id: query.subject_id,
        since: query.since,
        until: query.until,
        before: query.before,
        limit: CSV_PAGE,
    };
    // The first page is read before answering, so that a failing store is an error status,
    // not a cut-off file.
    let first = state.store.audit_entries(&filter).await?;
    let paging = Paging {
        filter,
        first: Some(first),
        done: false,
        state,
    };
    // The file streams after the handler has answered: its log lines keep the request's span.
    let span = tracing::Span::current();
    let pages = stream::unfold(paging, move |mut paging| {
        async move {
            if paging.done {
                return None;
            }
            let page = match paging.first.take() {
                Some(page) => page,
                None => match paging.state.store.audit_entries(&paging.filter).await {
                    Ok(page) => page,
                    Err(error) => {
                        tracing::error!(error = %error, "the audit log's CSV stopped early");
                        paging.done = true;
                        return Some((Err(std::io::Error::other(error)), paging));
                    }
                },
            };
            if page.is_empty() {
                return None;
            }
            paging.done = (page.len() as i64) < CSV_PAGE;
            paging.filter.before = page.last().map(|entry| entry.id);
            Some((Ok(page.iter().map(csv_line).collect::<String>()), paging))
        }
        .instrument(span.clone())
    });
    let body = stream::iter([Ok::<_, std::io::Error>(HEADER.to_owned())]);
    let body = Body::from_stream(futures_util::StreamExt::chain(body, pages));
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"ferry-audit.csv\"",
            ),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response())
}

/// Where the download stands: the filter moves on page by page.
struct Paging {
    filter: AuditFilter,
    /// The page read before answering.
    first: Option<Vec<AuditRecord>>,
    done: bool,
    state: AppState,
}

fn csv_line(record: &AuditRecord) -> String {
    let e = &record.entry;
    let json = |value: &Option<serde_json::Value>| {
        value.as_ref().map(|v| v.to_string()).unwrap_or_default()
    };
    let cells = [
        record.id.to_string(),
        utc_time_text(e.at),
        e.at.to_string(),
        e.actor.clone(),
        e.actor_email.clone().unwrap_or_default(),
        e.actor_role.clone(),
        e.action.clone(),
        e.subject_kind.clone(),
        e.subject_id.clone(),
        e.reason.clone().unwrap_or_default(),
        e.client_ip.clone(),
        e.user_agent.clone(),
        json(&e.before),
        json(&e.after),
    ];
    let mut line = cells.iter().map(|c| cell(c)).collect::<Vec<_>>().join(",");
    line.push_str("\r\n");
    line
}

/// One CSV cell (RFC 4180): quoted, quotes doubled. A cell a spreadsheet would run as a
/// formula (`=`, `+`, `-`, `@`, their fullwidth forms, a tab or a carriage return first, after
/// any spaces or line breaks) gets a `'` in front: the log holds text that people typed.
fn cell(text: &str) -> String {
    let first = text.trim_start_matches([' ', '\n']).chars().next();
    let guarded = match first {
        Some('=' | '+' | '-' | '@' | '\t' | '\r' | '＝' | '＋' | '－' | '＠') => {
            format!("'{text}")
        }
        _ => text.to_owned(),
    };
    format!("\"{}\"", guarded.replace('"', "\"\""))
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn a_cell_is_quoted_and_never_runs_as_a_formula() {
        assert_eq!(cell("plain"), "\"plain\"");
        assert_eq!(cell("say \"hi\", then"), "\"say \"\"hi\"\", then\"");
        assert_eq!(cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(cell("+1"), "\"'+1\"");
        assert_eq!(cell("-2"), "\"'-2\"");
        assert_eq!(cell("@SUM(A1)"), "\"'@SUM(A1)\"");
        assert_eq!(cell("line\nbreak"), "\"line\nbreak\"");
        assert_eq!(cell("  =1+1"), "\"'  =1+1\"");
        assert_eq!(cell("\n@x"), "\"'\n@x\"");
        assert_eq!(cell("＝1"), "\"'＝1\"");
    }
}
