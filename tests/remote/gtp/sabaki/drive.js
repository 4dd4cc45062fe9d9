// Sabaki's own GTP library (@sabaki/gtp: Controller, ControllerStateTracker) drives
// `arena gtp` as Sabaki does, and prints what it saw as one JSON object on stdout.
//
//   node drive.js SCENARIO ENGINE [ARGS...]
//
// SCENARIO is one of: handicap, setup, analysis, status. test_sabaki.py runs each and
// checks the JSON; every command and reply goes to the transcript (the JSON's
// "transcript"), as Sabaki's GTP console would show it.

const {Controller, ControllerStateTracker} = require('@sabaki/gtp')

const [scenario, path, ...args] = process.argv.slice(2)
const controller = new Controller(path, args)
const tracker = new ControllerStateTracker(controller)
const transcript = []

controller.on('command-sent', ({command}) => {
  transcript.push('> ' + [command.name, ...command.args].join(' '))
})
controller.on('response-received', ({response}) => {
  transcript.push(`${response.error ? '?' : '='} ${response.content}`)
})

const play = (color, vertex) => ({name: 'play', args: [color, vertex]})

async function send(name, ...commandArgs) {
  const response = await tracker.queueCommand({name, args: commandArgs})
  return {error: response.error, content: response.content}
}

async function board() {
  // The stones as the engine has them, read from showboard: {X: [...], O: [...]}.
  const {content} = await send('showboard')
  const stones = {X: [], O: []}
  const letters = 'ABCDEFGHJKLMNOPQRST'
  for (const line of content.split('\n')) {
    const match = line.match(/^\s*(\d+) ((?:[.XO] )+)/)
    if (!match) continue
    match[2].trim().split(' ').forEach((cell, col) => {
      if (cell !== '.') stones[cell].push(letters[col] + match[1])
    })
  }
  stones.X.sort()
  stones.O.sort()
  return stones
}

async function handicap() {
  // Sabaki's sync of a new 9x9 game with two handicap stones, then a game played
  // through genmove and play, as a person playing Black against the engine would.
  const history = [{name: 'set_free_handicap', args: ['C3', 'G7']}]
  await tracker.sync({komi: 0.5, boardsize: [9, 9], history})
  const moves = []
  const genmove = await send('genmove', 'W')
  moves.push(genmove.content)
  history.push(play('W', genmove.content))
  for (const vertex of ['E5', 'D6', 'F4']) {
    if (history.some(c => c.name === 'play' && c.args[1] === vertex)) continue
    history.push(play('B', vertex))
    await tracker.sync({komi: 0.5, boardsize: [9, 9], history})
    const reply = await send('genmove', 'W')
    moves.push(reply.content)
    history.push(play('W', reply.content))
  }
  return {moves, board: await board(), history: tracker.state.history}
}

async function setup() {
  // A position with setup stones (Sabaki replays AB/AW as plays of one colour in a
  // row), then undo and resync, then another line that forces a replay from scratch.
  const size = {komi: 7.5, boardsize: [9, 9]}
  const stones = [play('B', 'E5'), play('B', 'D4'), play('W', 'C3'), play('W', 'C4')]
  await tracker.sync({...size, history: stones})
  const first = await board()
  const more = [...stones, play('B', 'F6'), play('W', 'G7')]
  await tracker.sync({...size, history: more})
  const second = await board()
  await tracker.sync({...size, history: stones}) // two undos
  const undone = await board()
  const other = [play('W', 'A1'), play('B', 'J9')]
  await tracker.sync({...size, history: other}) // nothing shared: clear_board and replay
  const replayed = await board()
  const genmove = await send('genmove', 'W')
  return {first, second, undone, replayed, genmove}
}

async function analyze(name) {
  // Stream `name 10` for a second, then stop it with the next command, as Sabaki does.
  const lines = []
  const done = controller.sendCommand({name, args: ['10']}, ({line}) => lines.push(line))
  await new Promise(resolve => setTimeout(resolve, 1000))
  const next = await controller.sendCommand({name: 'name'})
  const response = await done
  return {lines, error: response.error, next: next.content}
}

async function analysis() {
  await tracker.sync({komi: 7.5, boardsize: [9, 9], history: [play('B', 'E5')]})
  return {lz: await analyze('lz-analyze'), kata: await analyze('kata-analyze')}
}

async function status() {
  // A finished 5x5 game: Black's E3 stands inside White's area, and both passed.
  const vertices = ['B1', 'D1', 'B2', 'D2', 'B3', 'D3', 'B4', 'D4', 'B5', 'D5', 'E3', 'C3']
  const history = vertices.map((v, i) => play('BW'[i % 2], v))
  history.push(play('B', 'pass'), play('W', 'pass'))
  await tracker.sync({komi: 0.5, boardsize: [5, 5], history})
  return {
    dead: await send('final_status_list', 'dead'),
    alive: await send('final_status_list', 'alive'),
    seki: await send('final_status_list', 'seki'),
    score: await send('final_score')
  }
}

async function thinking() {
  // Sabaki playing against the engine with its thinking shown: lz-genmove_analyze,
  // whose final 'play VERTEX' line the tracker reads into its history.
  await tracker.sync({komi: 7.5, boardsize: [9, 9], history: [play('B', 'E5')]})
  const lines = []
  const response = await tracker.queueCommand(
    {name: 'lz-genmove_analyze', args: ['W', '10']},
    ({line}) => lines.push(line)
  )
  await new Promise(resolve => setTimeout(resolve, 100)) // the tracker reads the reply
  return {lines, error: response.error, history: tracker.state.history, board: await board()}
}

const scenarios = {handicap, setup, analysis, status, thinking}

async function main() {
  controller.start()
  let result
  let failure = null
  try {
    result = await scenarios[scenario]()
  } catch (err) {
    failure = String(err && err.message ? err.message : err)
  }
  await controller.stop()
  process.stdout.write(JSON.stringify({result, failure, transcript}) + '\n')
}

main()
