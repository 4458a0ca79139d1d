"""What the test peers of Tools/peers share: a Django app without a package, and serving on a
free loopback port with the URL as the first line on stdout."""
import signal
import sys
import threading
import types


def configure_django(urlconf, apps, middleware, rest_framework, **extra):
    """Django for a peer: in-memory SQLite, no authentication, `apps` and the app `peer` (whose
    models live in the peer's own file, `urlconf`), then set up."""
    import django
    from django.apps import AppConfig
    from django.conf import settings

    settings.configure(
        DEBUG=False,
        ALLOWED_HOSTS=["*"],
        SECRET_KEY="fresh-test-peer",
        ROOT_URLCONF=urlconf,
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
        INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"] + apps + ["peer"],
        MIDDLEWARE=middleware + ["django.middleware.common.CommonMiddleware", "django.middleware.http.ConditionalGetMiddleware"],
        REST_FRAMEWORK={"DEFAULT_AUTHENTICATION_CLASSES": [], "DEFAULT_PERMISSION_CLASSES": [], "UNAUTHENTICATED_USER": None,
                        **rest_framework},
        USE_TZ=True,
        **extra,
    )

    peer = types.ModuleType("peer")
    peer.__file__ = sys.argv[0]
    sys.modules["peer"] = peer

    class PeerConfig(AppConfig):
        name = "peer"
        label = "peer"
        path = "/"

    peer.PeerConfig = PeerConfig
    peer.default_app_config = "peer.PeerConfig"
    django.setup()


def serve(server, lifetime):
    """Prints the server's base URL, then serves until SIGTERM, Ctrl-C or `lifetime` seconds."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"http://127.0.0.1:{server.server_port}", flush=True)
    timer = threading.Timer(lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def serve_django(seed, lifetime):
    """Creates the tables, fills them (`seed()`), then serves the Django app (WSGI, quietly)."""
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, *_):
            pass

    call_command("migrate", run_syncdb=True, verbosity=0)
    seed()
    serve(make_server("127.0.0.1", 0, get_wsgi_application(), handler_class=QuietHandler), lifetime)
