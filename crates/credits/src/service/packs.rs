//! The credit packs for sale: the one source of truth the UI shows (DESIGN.md §5).

/// A pack of credits, priced in integer cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pack {
    pub id: &'static str,
    pub name: &'static str,
    pub credits: i32,
    pub price_cents: i64,
    pub popular: bool,
}

pub const CURRENCY: &str = "usd";

pub const PACKS: [Pack; 3] = [
    Pack { id: "starter", name: "Starter Pack", credits: 10, price_cents: 499, popular: false },
    Pack { id: "popular", name: "Popular Pack", credits: 25, price_cents: 999, popular: true },
    Pack { id: "value", name: "Value Pack", credits: 100, price_cents: 1999, popular: false },
];

pub fn find(id: &str) -> Option<Pack> {
    PACKS.iter().copied().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_match_the_price_list() {
        let listed: Vec<_> = PACKS.iter().map(|p| (p.id, p.credits, p.price_cents)).collect();
        assert_eq!(listed, vec![("starter", 10, 499), ("popular", 25, 999), ("value", 100, 1999)]);
        assert_eq!(find("value").map(|p| p.name), Some("Value Pack"));
        assert_eq!(find("mega"), None);
    }
}
