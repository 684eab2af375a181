"""Taizhang's domain (台帳): tiles, hands, scoring, table state and payments, in pure Python."""
