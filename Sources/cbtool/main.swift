// cbtool: the command-line tool over the CoreBluetooth module; parses the command line, runs one command, exits.

import OCBToolKit
import Foundation

exit(CBTool.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
