/**
 * The Python side of the Python sandbox (python-sandbox.ts), run once per interpreter into a namespace of its own
 * (never in sys.modules, so user code has no name for it). It gives the host four functions — `baseline()` after
 * start-up, `compile_user(code)`, `call_main(inputs_json, max_chars)` and `reset()` after every
 * execution — and installs an audit hook (which cannot be removed) that refuses the ways out of the interpreter:
 * sockets, processes, ctypes, the JavaScript bridge modules (`js`, `pyodide_js`, `pyodide.*`, `micropip`), and the
 * garbage collector's object walks (which would reach this namespace). The JavaScript side is locked down as well;
 * this layer is what makes the refusals readable (`ImportError: js is not available …`).
 */
export const PYTHON_RUNNER = String.raw`
import sys, builtins, os, json, traceback, linecache
from itertools import repeat
from operator import is_ as _is

_MISSING = object()

_BLOCKED_MODULES = {
    'js': 'the JavaScript bridge',
    'pyodide_js': 'the JavaScript bridge',
    'pyodide': 'the Pyodide API (pyfetch, run_js, package loading)',
    '_pyodide': 'the Pyodide API',
    '_pyodide_core': 'the Pyodide API',
    'micropip': 'installing packages',
    'ctypes': 'foreign function calls',
    '_ctypes': 'foreign function calls',
    'ssl': 'network access',
    '_ssl': 'network access',
}
_NO_NETWORK = 'network access is disabled in the Python sandbox (no sockets, HTTP or DNS)'
_REFUSED_EVENTS = {
    'socket.__new__': _NO_NETWORK,
    'socket.connect': _NO_NETWORK,
    'socket.bind': _NO_NETWORK,
    'socket.getaddrinfo': _NO_NETWORK,
    'socket.gethostbyname': _NO_NETWORK,
    'socket.gethostbyaddr': _NO_NETWORK,
    'socket.sendto': _NO_NETWORK,
    'sys.addaudithook': 'audit hooks cannot be added in the Python sandbox',
    'gc.get_objects': 'gc.get_objects is disabled in the Python sandbox',
    'gc.get_referrers': 'gc.get_referrers is disabled in the Python sandbox',
    'gc.get_referents': 'gc.get_referents is disabled in the Python sandbox',
    'os.system': 'processes cannot be started in the Python sandbox',
    'os.exec': 'processes cannot be started in the Python sandbox',
    'os.posix_spawn': 'processes cannot be started in the Python sandbox',
    'os.spawn': 'processes cannot be started in the Python sandbox',
    'os.fork': 'processes cannot be started in the Python sandbox',
    'os.kill': 'processes cannot be signalled in the Python sandbox',
    'subprocess.Popen': 'processes cannot be started in the Python sandbox',
    'sys.remote_exec': 'not available in the Python sandbox',
}

def _unavailable(name, what):
    return f'{name} is not available in the Python sandbox ({what}); it has the standard library only'

def _audit(event, args):
    why = _REFUSED_EVENTS.get(event)
    if why is not None:
        raise PermissionError(why)
    if event.startswith('ctypes.'):
        raise PermissionError('ctypes is disabled in the Python sandbox')
    if event == 'import':
        top = str(args[0]).split('.')[0]
        what = _BLOCKED_MODULES.get(top)
        if what is not None:
            raise ImportError(_unavailable(top, what))

class _Refused:
    """What a refused module name in sys.modules is: any attribute is an ImportError that says why."""
    def __init__(self, name, what):
        object.__setattr__(self, '_why', _unavailable(name, what))
    def __getattr__(self, attr):
        raise ImportError(object.__getattribute__(self, '_why'))

_state = {}

def _fs_snapshot():
    out = {}
    for top in os.listdir('/'):
        if top in ('tmp', 'home', 'dev', 'proc'):
            continue
        for root, dirs, files in os.walk('/' + top):
            for f in files:
                p = os.path.join(root, f)
                try:
                    st = os.stat(p)
                    out[p] = (st.st_size, st.st_mtime)
                except OSError:
                    pass
    return out

def _scratch_dirs():
    return [d for d in ('/tmp', os.path.expanduser('~')) if os.path.isdir(d)]

def _no_javascript(*args, **kwargs):
    raise PermissionError('JavaScript is not reachable from the Python sandbox')

# What Dify's code imports most, loaded once per interpreter (restored like every module at start-up), so that an
# execution's own time is not spent importing them.
_PRELOADED = (
    'json re datetime time math random string collections itertools functools typing base64 hashlib uuid decimal '
    'urllib.parse html textwrap copy'
).split()

def baseline():
    """Remembers what every execution starts from; installs the audit hook. Called once, before any user code."""
    import importlib
    for name in _PRELOADED:
        importlib.import_module(name)
    # JavaScript objects that loaded modules hold (asyncio's loop scheduling JS timers, the package list): none is
    # left, so no callback can outlive its execution and nothing reaches a JavaScript object by a module's name.
    from pyodide.ffi import JsProxy
    for m in list(sys.modules.values()):
        for k, v in list(getattr(m, '__dict__', {}).items()):
            if isinstance(v, JsProxy):
                setattr(m, k, _no_javascript)
    for name, what in _BLOCKED_MODULES.items():
        for loaded in [m for m in sys.modules if m == name or m.startswith(name + '.')]:
            sys.modules[loaded] = _Refused(loaded, what)
    _state['modules'] = dict(sys.modules)
    _state['module_dicts'] = {
        n: dict(vars(m)) for n, m in sys.modules.items() if hasattr(m, '__dict__') and not isinstance(m, _Refused)
    }
    _state['module_keys'] = {n: (tuple(d), tuple(d.values())) for n, d in _state['module_dicts'].items()}
    _state['builtins'] = dict(vars(builtins))
    for k in [k for k in os.environ if k not in ('USER', 'LOGNAME', 'PATH', 'PWD', 'HOME', 'LANG')]:
        del os.environ[k]
    _state['environ'] = dict(os.environ)
    _state['cwd'] = os.getcwd()
    _state['sys'] = {k: (list(v) if isinstance(v, list) else v) for k, v in vars(sys).items()}
    _state['recursion'] = sys.getrecursionlimit()
    _state['fs'] = _fs_snapshot()
    _state['scratch'] = {d: set(os.listdir(d)) for d in _scratch_dirs()}
    sys.addaudithook(_audit)

def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        for child in os.listdir(path):
            _remove(os.path.join(path, child))
        os.rmdir(path)
    else:
        os.remove(path)

def reset():
    """Puts the interpreter back as baseline() saw it. Answers False when it cannot (the thread is then replaced)."""
    clean = True
    _state.pop('namespace', None)
    sys.settrace(None)
    sys.setprofile(None)
    sys.setrecursionlimit(_state['recursion'])
    for name in [n for n in sys.modules if n not in _state['modules']]:
        del sys.modules[name]
    for name, module in _state['modules'].items():
        if sys.modules.get(name) is not module:
            sys.modules[name] = module
    for name, saved in _state['module_dicts'].items():
        current = vars(_state['modules'][name])
        # Identity only, in C (map/is_): a value's own __eq__ never runs, and 200 modules take about a millisecond.
        keys, values = _state['module_keys'][name]
        if len(current) != len(keys) or not all(map(_is, map(current.get, keys, repeat(_MISSING)), values)):
            current.clear()
            current.update(saved)
    b = vars(builtins)
    b.clear()
    b.update(_state['builtins'])
    s = vars(sys)
    for k, v in _state['sys'].items():
        if isinstance(v, list):
            s[k][:] = v
    os.environ.clear()
    os.environ.update(_state['environ'])
    try:
        os.chdir(_state['cwd'])
    except OSError:
        clean = False
    for d, names in _state['scratch'].items():
        try:
            for n in set(os.listdir(d)) - names:
                _remove(os.path.join(d, n))
        except OSError:
            clean = False
    if _fs_snapshot() != _state['fs']:
        clean = False
    linecache.clearcache()
    return clean

class UserError(Exception):
    pass

def _where(tb_list):
    frames = [f for f in tb_list if f.filename == 'main.py']
    return frames[-1].lineno if frames else None

def describe(e):
    """An exception of the user's code as JSON: kind, message, line in main.py."""
    name = type(e).__name__
    if isinstance(e, SyntaxError) and getattr(e, 'filename', None) == 'main.py':
        return json.dumps({'kind': 'syntax', 'name': name, 'message': str(e.msg), 'line': e.lineno, 'column': e.offset})
    kind = 'memory' if isinstance(e, MemoryError) else 'recursion' if isinstance(e, RecursionError) else 'error'
    try:
        line = _where(traceback.extract_tb(e.__traceback__))
    except Exception:
        line = None
    try:
        message = str(e)[:2000]
    except Exception:
        message = '[an exception that could not be shown]'
    return json.dumps({'kind': kind, 'name': name, 'message': message, 'line': line})

def compile_user(code):
    """Runs the user's module in a fresh namespace (kept for call_main); the description of what failed, or None."""
    namespace = {'__name__': '__main__', '__builtins__': builtins}
    _state['namespace'] = namespace
    try:
        compiled = compile(code, 'main.py', 'exec')
        linecache.cache['main.py'] = (len(code), None, code.splitlines(True), 'main.py')
        exec(compiled, namespace)
    except BaseException as e:
        return describe(e)
    return None

def _json_default(value):
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f'a {type(value).__name__} is not JSON')

def call_main(inputs_json, max_chars):
    """main(**inputs) → ('ok', json) | ('no_main', '') | ('error', description) | ('invalid', why) | ('too_large', n)
    """
    main = _state['namespace'].get('main')
    if not callable(main):
        return ('no_main', '')
    try:
        result = main(**json.loads(inputs_json))
    except BaseException as e:
        return ('error', describe(e))
    try:
        text = json.dumps(result, ensure_ascii=False, allow_nan=False, default=_json_default)
    except RecursionError:
        return ('invalid', 'it is nested too deeply')
    except (TypeError, ValueError) as e:
        return ('invalid', str(e)[:500])
    if len(text) > max_chars:
        return ('too_large', str(len(text)))
    return ('ok', text)
`;
