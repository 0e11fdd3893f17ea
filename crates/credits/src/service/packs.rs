//! The credit packs for sale: the one source of truth the UI shows (DESIGN.md §5).

/// Which pack: its id in requests, answers and `payments.package_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PackId {
    Starter,
    Popular,
    Value,
}

impl PackId {
    /// The id as requests name it and payments record it.
    pub fn as_str(self) -> &'static str {
        match self {
            PackId::Starter => "starter",
            PackId::Popular => "popular",
            PackId::Value => "value",
        }
    }
}

/// A pack of credits, priced in integer cents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pack {
    pub id: PackId,
    pub name: &'static str,
    pub credits: i32,
    pub price_cents: i64,
    pub popular: bool,
}

pub const CURRENCY: &str = "usd";

pub const PACKS: [Pack; 3] = [
    Pack { id: PackId::Starter, name: "Starter Pack", credits: 10, price_cents: 499, popular: false },
    Pack { id: PackId::Popular, name: "Popular Pack", credits: 25, price_cents: 999, popular: true },
    Pack { id: PackId::Value, name: "Value Pack", credits: 100, price_cents: 1999, popular: false },
];

pub fn find(id: &str) -> Option<Pack> {
    PACKS.iter().copied().find(|p| p.id.as_str() == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_match_the_price_list() {
        let listed: Vec<_> = PACKS.iter().map(|p| (p.id.as_str(), p.credits, p.price_cents)).collect();
        assert_eq!(listed, vec![("starter", 10, 499), ("popular", 25, 999), ("value", 100, 1999)]);
        assert_eq!(find("value").map(|p| p.name), Some("Value Pack"));
        assert_eq!(find("mega"), None);
    }
}
