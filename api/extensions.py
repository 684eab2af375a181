"""The Flask extensions of the app: the flask-smorest ``Api`` and its settings."""
from flask_smorest import Api

from api.errors import JsonErrorSchema, http_error_response

API_SETTINGS = {
    "API_TITLE": "Taizhang",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/api",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
}


class TaizhangApi(Api):
    """flask-smorest's Api whose error bodies always carry a readable ``message``."""

    ERROR_SCHEMA = JsonErrorSchema

    def handle_http_exception(self, error):
        return http_error_response(error)
