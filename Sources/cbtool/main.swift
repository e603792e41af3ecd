// cbtool: the command-line tool over the CoreBluetooth module.
print("cbtool: not yet built")
