-- A slug given up by a rename stays held for its owner for 90 days, and /rig/{old slug}
-- answers 301 to their page's new address meanwhile (redirect_user_id: whose page).
ALTER TABLE rigpage_slug_holds ADD COLUMN redirect_user_id BIGINT;
