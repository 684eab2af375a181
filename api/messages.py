"""The API's own error messages in the reader's language (English, 繁體中文, 简体中文).

A phone shows these when something went wrong with the link, the evening or
the request: a missing or replaced link, a read-only link, an evening that
is closed or changed on another phone, too much data. ``say(key, ...)``
words one in the request's ``Accept-Language`` (English by default, as the
API always answered).

The domain's reasons for refusing a hand (``ledger`` validation, 422) stay
English: the page names the field in its own words instead.
"""
from api.language import request_language
from reports.words import ENGLISH, SIMPLIFIED, TRADITIONAL

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
    "closed": {
        ENGLISH: "This evening is closed: reopen it to change it.",
        TRADITIONAL: "牌局已結束：重新開啟後才能更改。",
        SIMPLIFIED: "牌局已结束：重新打开后才能更改。"},
    "stale": {
        ENGLISH: "This evening has changed on another phone: it is at revision {revision} now.",
        TRADITIONAL: "另一支手機改了這個牌局：現在是第 {revision} 版。",
        SIMPLIFIED: "另一部手机改了这个牌局：现在是第 {revision} 版。"},
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


def say(key: str, **values) -> str:
    """The message `key` in the request's language, English when the reader asks for none Taizhang speaks."""
    return MESSAGES[key][request_language(ENGLISH)].format(**values)


def says(key: str) -> bool:
    """Whether there is a message `key`."""
    return key in MESSAGES
