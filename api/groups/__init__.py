"""A group (牌友會, ``/api/groups``): a roster that plays week after week, its payments, balances and standings."""
