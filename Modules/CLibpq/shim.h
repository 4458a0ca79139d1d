// libpq, PostgreSQL's own client library (Debian libpq-dev): the PostgreSQL mirror's connections.
#include <libpq-fe.h>
