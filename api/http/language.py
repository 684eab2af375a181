"""The reader's language (繁體中文, 简体中文 or English): the API's own messages and pattern names in it.

Which language: ``?lang=`` where an endpoint takes it, else the request's
``Accept-Language`` (``reports.words.language_from_accept`` says which tag is
which language). The PDF and the pictures default to 繁體中文 (the tables
Taizhang was made for); error messages default to English, as the API
always spoke.

**Messages.** A phone shows these when something went wrong with the link,
the evening or the request: a missing or replaced link, a read-only link,
an evening that is closed or changed on another phone, too much data.
``say(key, ...)`` words one in the request's language. The domain's reasons
for refusing a hand (``ledger`` validation, 422) stay English: the page
names the field in its own words instead.

**Pattern names.** The rule sets name their patterns in 繁體中文
(``ledger.rules``), and the stored results keep those names. A reader whose
language is 简体中文 gets each pattern named from ``ledger.pattern_names``'
table instead: every object of the answer with a pattern ``id`` and a
``name`` (``in_reader_script``). An English reader keeps the Chinese names,
which the page shows as the table says them.
"""
from flask import request

from ledger.pattern_names import pattern_names
from reports.words import ENGLISH, SIMPLIFIED, TRADITIONAL, language, language_from_accept, ruleset_name


def request_language(default: str) -> str:
    """The most wanted language of ``Accept-Language`` that Taizhang speaks, else ``default``."""
    return language_from_accept((tag for tag, _ in request.accept_languages), default)


def reader_language(query: dict) -> str:
    """``?lang=`` when given, else the reader's ``Accept-Language``, else 繁體中文."""
    return language(query["lang"]) if "lang" in query else request_language(TRADITIONAL)


# -- messages ----------------------------------------------------------------------

MESSAGES = {
    "token_missing": {
        ENGLISH: "This session needs its token: send Authorization: Bearer <token>.",
        TRADITIONAL: "這個牌局需要它的權杖：請用分享連結開啟（Authorization: Bearer <token>）。",
        SIMPLIFIED: "这个牌局需要它的令牌：请用分享链接打开（Authorization: Bearer <token>）。"},
    "read_only": {
        ENGLISH: "This is a read-only link: it shows the evening but cannot change it.",
        TRADITIONAL: "這是唯讀連結：只能查看牌局，不能更改。",
        SIMPLIFIED: "这是只读链接：只能查看牌局，不能更改。"},
    "no_session": {
        ENGLISH: "No session {session_id!r}.",
        TRADITIONAL: "找不到牌局 {session_id}。",
        SIMPLIFIED: "找不到牌局 {session_id}。"},
    "token_replaced": {
        ENGLISH: "This link has been replaced by a new one: ask the table for the new link.",
        TRADITIONAL: "這個連結已經換新：請向同桌的人要新連結。",
        SIMPLIFIED: "这个链接已经换新：请向同桌的人要新链接。"},
    "wrong_token": {
        ENGLISH: "This token does not open this session.",
        TRADITIONAL: "這個連結打不開這個牌局。",
        SIMPLIFIED: "这个链接打不开这个牌局。"},
    "no_group": {
        ENGLISH: "No group {group_id!r}.",
        TRADITIONAL: "找不到牌友會 {group_id}。",
        SIMPLIFIED: "找不到牌友会 {group_id}。"},
    "wrong_group_token": {
        ENGLISH: "This token does not open this group (or it has been replaced): ask for the new link.",
        TRADITIONAL: "這個連結打不開這個牌友會（或已經換新）：請要新連結。",
        SIMPLIFIED: "这个链接打不开这个牌友会（或已经换新）：请要新链接。"},
    "group_level": {
        ENGLISH: "This needs the group's {need} link; this is its {level} link.",
        TRADITIONAL: "這需要牌友會的{need}連結；這是{level}連結。",
        SIMPLIFIED: "这需要牌友会的{need}链接；这是{level}链接。"},
    "closed": {
        ENGLISH: "This evening is closed: reopen it to change it.",
        TRADITIONAL: "牌局已結束：重新開啟後才能更改。",
        SIMPLIFIED: "牌局已结束：重新打开后才能更改。"},
    "stale": {
        ENGLISH: "This evening has changed on another phone: it is at revision {revision} now.",
        TRADITIONAL: "另一支手機改了這個牌局：現在是第 {revision} 版。",
        SIMPLIFIED: "另一部手机改了这个牌局：现在是第 {revision} 版。"},
    "no_member": {
        ENGLISH: "No member {member!r} in this group.",
        TRADITIONAL: "這個牌友會沒有成員 {member}。",
        SIMPLIFIED: "这个牌友会没有成员 {member}。"},
    "no_evening": {
        ENGLISH: "No evening {session_id!r} in this group.",
        TRADITIONAL: "這個牌友會沒有牌局 {session_id}。",
        SIMPLIFIED: "这个牌友会没有牌局 {session_id}。"},
    "no_payment": {
        ENGLISH: "No payment {payment_id} in this group.",
        TRADITIONAL: "這個牌友會沒有第 {payment_id} 筆付款。",
        SIMPLIFIED: "这个牌友会没有第 {payment_id} 笔付款。"},
    "no_hand": {
        ENGLISH: "No hand {number} in this session.",
        TRADITIONAL: "這個牌局沒有第 {number} 局。",
        SIMPLIFIED: "这个牌局没有第 {number} 局。"},
    "too_large": {
        ENGLISH: "Request body too large: at most {limit} bytes are accepted.",
        TRADITIONAL: "一次送出的資料太多：最多 {limit} 位元組。",
        SIMPLIFIED: "一次发送的数据太多：最多 {limit} 字节。"},
    "invalid": {
        ENGLISH: "Invalid request: {problems}",
        TRADITIONAL: "請求無效：{problems}",
        SIMPLIFIED: "请求无效：{problems}"},
    "malformed": {
        ENGLISH: "Malformed request: {problems}",
        TRADITIONAL: "請求格式錯誤：{problems}",
        SIMPLIFIED: "请求格式错误：{problems}"},
    # werkzeug's own errors, when no view said more
    "http_404": {
        ENGLISH: "The requested URL was not found on the server. If you entered the URL manually please check "
                 "your spelling and try again.",
        TRADITIONAL: "這裡什麼都沒有：請檢查網址。",
        SIMPLIFIED: "这里什么都没有：请检查网址。"},
    "http_405": {
        ENGLISH: "The method is not allowed for the requested URL.",
        TRADITIONAL: "這個網址不接受這種請求。",
        SIMPLIFIED: "这个网址不接受这种请求。"},
    "http_500": {
        ENGLISH: "The server encountered an internal error and was unable to complete your request. Either the "
                 "server is overloaded or there is an error in the application.",
        TRADITIONAL: "伺服器出了問題：什麼都沒有改。請再試一次。",
        SIMPLIFIED: "服务器出了问题：什么都没有改。请再试一次。"},
}


#: A group token's level (``api.auth.GROUP_LEVELS``) in words, for ``group_level``.
GROUP_LEVEL_WORDS = {
    "admin": {ENGLISH: "admin", TRADITIONAL: "管理員", SIMPLIFIED: "管理员"},
    "member": {ENGLISH: "member", TRADITIONAL: "成員", SIMPLIFIED: "成员"},
    "read": {ENGLISH: "read-only", TRADITIONAL: "唯讀", SIMPLIFIED: "只读"},
}


def say(key: str, **values) -> str:
    """The message `key` in the request's language, English when the reader asks for none Taizhang speaks."""
    return MESSAGES[key][request_language(ENGLISH)].format(**values)


def level_words(level: str) -> str:
    """A group token's level in the request's language."""
    return GROUP_LEVEL_WORDS[level][request_language(ENGLISH)]


def says(key: str) -> bool:
    """Whether there is a message `key`."""
    return key in MESSAGES


# -- pattern names ------------------------------------------------------------------


def in_reader_script(answer, ruleset: str):
    """`answer` (JSON-shaped) with pattern names in the reader's script; as it is for any other reader."""
    names = reader_names(ruleset)
    return answer if names is None else renamed(answer, names)


def reader_names(ruleset: str, lang: str | None = None) -> dict[str, str] | None:
    """Pattern id -> name for a reader of `lang` (else of this request's) at a `ruleset` table; None when the
    stored names do.

    Asked once for a live stream (``api.sessions.events``), which goes on after its request.
    """
    return pattern_names(ruleset, SIMPLIFIED) if (lang or request_language(TRADITIONAL)) == SIMPLIFIED else None


def ruleset_in_reader_script(described: dict) -> dict:
    """A rule set as ``GET /api/rulesets`` describes it, its name and its patterns' in the reader's script."""
    answer = in_reader_script(described, described["id"])
    if answer is described:
        return described
    return {**answer, "name": ruleset_name(described["id"], described["name"], SIMPLIFIED)}


def renamed(value, names: dict[str, str]):
    """`value` with every object that has a pattern ``id`` of `names` and a ``name`` named from `names`."""
    if isinstance(value, dict):
        out = {key: renamed(item, names) for key, item in value.items()}
        if "name" in out and out.get("id") in names:
            out["name"] = names[out["id"]]
        return out
    if isinstance(value, list):
        return [renamed(item, names) for item in value]
    return value
