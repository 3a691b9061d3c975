// Brings libyaml (Debian: libyaml-dev) into Swift.
#include <yaml.h>
