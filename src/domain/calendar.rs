//! Dates in UTC without a date library: the days the console filters on and the deadlines
//! upstreams write.

/// `YYYY-MM-DDTHH:MM:SSZ` of a Unix time.
pub fn utc_time_text(at: i64) -> String {
    let seconds = at.rem_euclid(86_400);
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        day_text(at.div_euclid(86_400)),
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// The day (since 1970-01-01) a `YYYY-MM-DD` text names, if it names one.
pub fn day_of(text: &str) -> Option<i64> {
    let mut parts = text.trim().splitn(3, '-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Howard Hinnant's days_from_civil, the inverse of `day_text`.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let day = era * 146_097 + doe - 719_468;
    // 2026-02-31 is not a day: it would come back as another.
    (day_text(day) == text.trim()).then_some(day)
}

/// `YYYY-MM-DD` of a day counted from 1970-01-01 (Howard Hinnant's civil-from-days).
pub fn day_text(day: i64) -> String {
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The Unix time of an RFC 3339 UTC time (`2025-01-01T12:20:00.000Z`, fractions dropped), as
/// upstream APIs write their deadlines; none for anything else (another offset included).
pub fn unix_of_rfc3339(text: &str) -> Option<i64> {
    let text = text.trim();
    let (date, time) = text.split_once(['T', 't'])?;
    let time = time.strip_suffix(['Z', 'z'])?;
    let time = time.split_once('.').map_or(time, |(whole, _)| whole);
    let mut parts = time.splitn(3, ':');
    let h: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let s: i64 = parts.next()?.parse().ok()?;
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    Some(day_of(date)? * 86_400 + h * 3600 + m * 60 + s)
}

#[cfg(test)]
mod tests {
    use super::{day_of, day_text, unix_of_rfc3339, utc_time_text};

    #[test]
    fn a_day_number_is_written_as_its_utc_date() {
        assert_eq!(day_text(0), "1970-01-01");
        assert_eq!(day_text(20_418), "2025-11-26");
        assert_eq!(day_text(20_513), "2026-03-01");
        assert_eq!(day_text(11_016), "2000-02-29");
        assert_eq!(utc_time_text(1_764_115_199), "2025-11-25T23:59:59Z");
    }

    #[test]
    fn a_date_is_read_back_as_its_day_and_a_date_that_is_not_one_is_refused() {
        for day in [0, 11_016, 20_418, 20_513, 2_932_896] {
            assert_eq!(day_of(&day_text(day)), Some(day), "{}", day_text(day));
        }
        for bad in [
            "2026-02-31",
            "2026-13-01",
            "2026-1-1x",
            "1969-12-31",
            "",
            "2026-02",
        ] {
            assert_eq!(day_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_upstreams_deadline_is_read_as_unix_seconds() {
        assert_eq!(unix_of_rfc3339("2025-11-25T23:59:59Z"), Some(1_764_115_199));
        assert_eq!(
            unix_of_rfc3339("2025-11-25T23:59:59.123Z"),
            Some(1_764_115_199)
        );
        for bad in [
            "2025-11-25 23:59:59",
            "2025-11-25T23:59:59+02:00",
            "2025-11-25T24:00:00Z",
            "",
        ] {
            assert_eq!(unix_of_rfc3339(bad), None, "{bad}");
        }
    }
}
