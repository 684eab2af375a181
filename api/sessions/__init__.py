"""An evening (牌局, ``/api/sessions``): one table, its hands, seats, house rules, live updates, backups, reports."""
