// microaot command line: compile, run, inspect.
int main() { return 0; }
