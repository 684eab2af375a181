"""gunicorn settings of the production server (``make serve``), besides those on its command line.

``gunicorn -c python:api.gunicorn_config …`` loads them.

Each worker, once it has loaded the app, moves every object then alive (the
app, its routes and schemas, the imported modules, the scoring tables: about
120,000 objects) out of reach of the garbage collector (``gc.freeze``). They
live as long as the worker does, yet a full collection looked at every one of
them: ≈ 55 ms, spent in whichever request happened to trigger it, every few
thousand requests, and in ≈ 1 of 3 cold replays of 1,000 full entries.
Objects made later, by requests, are collected as before.
"""
import gc


def freeze_loaded_app() -> int:
    """Collect what is garbage now, then exempt every object left from later collections; how many there are."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def post_worker_init(worker) -> None:
    """gunicorn's hook, run in each worker once the app is loaded."""
    worker.log.info("Froze %d objects of the loaded app (gc.freeze)", freeze_loaded_app())
