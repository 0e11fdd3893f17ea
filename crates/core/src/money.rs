//! Money is integer cents of US dollars (DESIGN.md §2); [`format_price`] writes it for people.

/// `$1,395.00` from 139500 cents.
pub fn format_price(cents: i64) -> String {
    let dollars = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, digit) in dollars.chars().enumerate() {
        if i > 0 && (dollars.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("${grouped}.{:02}", cents % 100)
}

#[cfg(test)]
mod tests {
    use super::format_price;

    #[test]
    fn prices_read_like_prices() {
        assert_eq!(format_price(1999), "$19.99");
        assert_eq!(format_price(139_500), "$1,395.00");
        assert_eq!(format_price(100_000_000), "$1,000,000.00");
        assert_eq!(format_price(5), "$0.05");
    }
}
