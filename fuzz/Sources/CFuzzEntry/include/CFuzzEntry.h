// Intentionally empty: this module only provides the executable's entry point (see entry.c).
