"""The browsable API docs at ``/api/docs``, with Swagger UI served from this server.

flask-smorest renders the page and loads the UI's script and style sheet from
``OPENAPI_SWAGGER_UI_URL``; that URL points at the Swagger UI files shipped by the
``swagger-ui-bundle`` package, so the page works with no internet.
"""
from flask import Blueprint
from swagger_ui_bundle import swagger_ui_path

ASSETS_URL = "/api/docs/assets"

DOCS_SETTINGS = {
    "OPENAPI_SWAGGER_UI_URL": f"{ASSETS_URL}/",
    # Swagger UI would otherwise ask an online validator about the spec.
    "OPENAPI_SWAGGER_UI_CONFIG": {"validatorUrl": None},
}

assets = Blueprint("docs_assets", __name__, static_folder=str(swagger_ui_path), static_url_path=ASSETS_URL)
