ALTER TABLE rigpage_slug_holds DROP COLUMN redirect_user_id;
