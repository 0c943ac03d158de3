# The project's own sitecustomize, on the PYTHONPATH its driver gives
# (honest.py): testgate's recorder shadows it and must run it.
import builtins

builtins.PROJECT_SITE = "ran"
